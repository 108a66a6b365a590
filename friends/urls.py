app_name = "friends"
urlpatterns: list = []
