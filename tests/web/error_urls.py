"""The app's URLs plus three that fail on purpose, for the error page tests."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.urls import path

from thirty.urls import handler404, handler500
from thirty.urls import urlpatterns as app_urlpatterns


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("a strange request")


urlpatterns = [
    path("boom", broken),
    path("api/boom", broken),
    path("forbidden", forbidden),
    path("suspicious", suspicious),
    *app_urlpatterns,
]

__all__ = ["handler404", "handler500", "urlpatterns"]
