from django.urls import path

from games.notify import push_views, views

app_name = "notify"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("vacation/begin", views.vacation_begin, name="vacation_begin"),
    path("vacation/end", views.vacation_end, name="vacation_end"),
    # Web Push (games/notify/push_views.py): the service worker, this browser's
    # subscription (JSON, from the account page's script), the kinds, a device removed.
    path("service-worker.js", push_views.service_worker, name="service_worker"),
    path("push/subscribe", push_views.device_subscribe, name="push_subscribe"),
    path("push/unsubscribe", push_views.device_unsubscribe, name="push_unsubscribe"),
    path("push/choices", push_views.choices_update, name="push_choices"),
    path("push/devices/<int:device_id>/remove", push_views.device_remove, name="push_device_remove"),
]
