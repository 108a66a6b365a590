app_name = "rematches"
urlpatterns: list = []
