from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from pokerroom import health


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Pages without the room's <link rel="icon"> (the admin, the API docs) still find one.
    Resolved per request: at import time the manifest of collected files may not exist yet
    (a Celery worker imports the URLs with DEBUG off)."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    # The room's health for supervisors, load balancers and Prometheus (pokerroom/health.py).
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", health.metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("hands/", include("histories.urls")),
    path("staff/", include("accounting.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("integrity.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script, so the
    # page passes the Content-Security-Policy (settings.py).
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api_schema", template_name="api/swagger_ui.html"
        ),
        name="api_docs",
    ),
    path("api/", include("api.urls")),
    path("", include("tables.urls")),
]
