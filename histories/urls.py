from django.urls import path

from histories import views

urlpatterns = [
    path("", views.hand_list, name="hand_list"),
    path("<int:hand_id>/", views.hand_detail, name="hand_detail"),
    path(
        "<int:hand_id>/player/<int:player_id>/",
        views.hand_detail_for_staff,
        name="hand_detail_for_staff",
    ),
    path("<int:hand_id>/text/", views.hand_download_text, name="hand_download_text"),
    path("<int:hand_id>/json/", views.hand_download_json, name="hand_download_json"),
    path("<int:hand_id>/phh/", views.hand_download_phh, name="hand_download_phh"),
    path("zip/", views.hands_download_zip, name="hands_download_zip"),
    path("my-data/", views.player_data_download, name="player_data_download"),
    path("email/", views.hands_email, name="hands_email"),
    path("import/", views.hands_import, name="hands_import"),
    path("import/keep/", views.hands_import_keep, name="hands_import_keep"),
    path("imported/<int:imported_id>/", views.imported_hand_detail, name="imported_hand_detail"),
    path(
        "imported/<int:imported_id>/text/",
        views.imported_hand_download,
        name="imported_hand_download",
    ),
    path(
        "imported/<int:imported_id>/delete/",
        views.imported_hand_remove,
        name="imported_hand_remove",
    ),
]
