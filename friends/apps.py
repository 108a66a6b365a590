from django.apps import AppConfig


class FriendsConfig(AppConfig):
    name = "friends"
    verbose_name = "friends: people one plays with, offered first when inviting"
