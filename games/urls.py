from django.urls import path

from games import api, api_matches, openapi_document, views

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
    path("api/", api.docs, name="api_docs"),
    path("api/openapi.json", openapi_document.openapi_json, name="api_openapi"),
    path("api/matches/<int:match_id>", api.match_detail, name="api_match"),
    path("api/matches/<int:match_id>/actions", api.match_actions, name="api_match_actions"),
    path("api/games", api_matches.games, name="api_games"),
    path("api/matches", api_matches.matches, name="api_matches"),
    path("api/lobby", api_matches.lobby, name="api_lobby"),
    path("api/matches/<int:match_id>/join", api_matches.join, name="api_match_join"),
    path("api/matches/<int:match_id>/leave", api_matches.leave, name="api_match_leave"),
    path("api/matches/<int:match_id>/resign", api_matches.resign, name="api_match_resign"),
    path("api/matches/<int:match_id>/chat", api_matches.chat, name="api_match_chat"),
]
