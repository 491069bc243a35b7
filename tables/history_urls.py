from django.urls import path

from tables import history_views

urlpatterns = [
    path("", history_views.hand_list, name="hand_list"),
    path("<int:hand_id>/", history_views.hand_detail, name="hand_detail"),
    path("<int:hand_id>/text/", history_views.hand_download_text, name="hand_download_text"),
    path("<int:hand_id>/json/", history_views.hand_download_json, name="hand_download_json"),
    path("zip/", history_views.hands_download_zip, name="hands_download_zip"),
    path("email/", history_views.hands_email, name="hands_email"),
]
