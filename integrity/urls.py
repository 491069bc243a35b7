from django.urls import path

from integrity import views

urlpatterns = [
    path("fairness/", views.fairness_chain, name="fairness_chain"),
]
