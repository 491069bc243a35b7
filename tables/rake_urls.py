from django.urls import path

from tables import rake_views

urlpatterns = [
    path("rake/", rake_views.rake_report_page, name="rake_report"),
]
