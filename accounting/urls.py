from django.urls import path

from accounting import views

urlpatterns = [
    path("rake/", views.rake_report_page, name="rake_report"),
    path("rake/statement/", views.statement_page, name="rake_statement"),
]
