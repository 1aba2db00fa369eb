from django.urls import path

from games import api, api_docs, views

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/<slug:slug>/", views.game_detail, name="game_detail"),
    path("play/<slug:slug>/how-to-play", views.how_to_play, name="how_to_play"),
    path("play/<slug:slug>/quick", views.quick_match, name="quick_match"),
    path("matches/", views.my_matches, name="my_matches"),
    path("matches/<int:match_id>/", views.match_page, name="match"),
    path("matches/<int:match_id>/board", views.match_board, name="match_board"),
    path("matches/<int:match_id>/act", views.match_act, name="match_act"),
    path("matches/<int:match_id>/join", views.match_join, name="match_join"),
    path("matches/<int:match_id>/decline", views.match_decline, name="match_decline"),
    path("matches/<int:match_id>/leave", views.match_leave, name="match_leave"),
    path("matches/<int:match_id>/resign", views.match_resign, name="match_resign"),
    path("matches/<int:match_id>/chat", views.match_chat, name="match_chat"),
    path("matches/<int:match_id>/verify", views.match_verify, name="match_verify"),
    path("matches/<int:match_id>/rematch", views.match_rematch, name="match_rematch"),
    path("matches/<int:match_id>/replay", views.match_replay, name="match_replay"),
    path("matches/<int:match_id>/replay/frame", views.match_replay_frame, name="match_replay_frame"),
    path("api/", api_docs.docs, name="api_docs"),
    path("api/games/<slug:slug>/", api_docs.game_docs, name="api_game_docs"),
    path("api/schemas/<slug:slug>/view.json", api_docs.view_schema_json, name="api_view_schema"),
    path("api/schemas/<slug:slug>/action.json", api_docs.action_schema_json, name="api_action_schema"),
    path("api/matches/<int:match_id>", api.match_detail, name="api_match"),
    path("api/matches/<int:match_id>/actions", api.match_actions, name="api_match_actions"),
]
