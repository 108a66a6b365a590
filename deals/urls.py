app_name = "deals"
urlpatterns: list = []
