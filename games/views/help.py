"""The help pages that are not about one game: the rules as the site plays them. (/bots/ and
/by-email/ are rendered in games/views/lobby.py; all three pick their language's source in
their template.)"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "help/rules.html")
