from django.urls import path

from integrity import views

urlpatterns = [
    path("fairness/", views.fairness_chain, name="fairness_chain"),
    path("staff/integrity/", views.integrity_home, name="integrity_home"),
    path("staff/integrity/scan/", views.integrity_scan_now, name="integrity_scan_now"),
    path("staff/integrity/pairs/<int:pair_id>/", views.integrity_pair, name="integrity_pair"),
    path(
        "staff/integrity/pairs/<int:pair_id>/case/",
        views.integrity_case_open,
        name="integrity_case_open",
    ),
    path(
        "staff/integrity/pairs/<int:pair_id>/shared-address/",
        views.integrity_shared_address_allow,
        name="integrity_shared_address_allow",
    ),
    path(
        "staff/integrity/cases/<int:case_id>/note/",
        views.integrity_case_note,
        name="integrity_case_note",
    ),
    path(
        "staff/integrity/cases/<int:case_id>/decide/",
        views.integrity_case_decide,
        name="integrity_case_decide",
    ),
    path("staff/integrity/hands/<int:hand_id>/", views.integrity_hand, name="integrity_hand"),
]
