from django.urls import path

from accounting import dashboard_views, views

urlpatterns = [
    path("rake/", views.rake_report_page, name="rake_report"),
    path("rake/statement/", views.statement_page, name="rake_statement"),
    path("dashboard/", dashboard_views.staff_dashboard, name="staff_dashboard"),
    path("dashboard/data/", dashboard_views.staff_dashboard_data, name="staff_dashboard_data"),
]
