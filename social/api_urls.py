from django.urls import path

from social import api

urlpatterns = [
    path("social/friends/", api.FriendsView.as_view(), name="api-social-friends"),
    path("social/players/", api.PlayersSearchView.as_view(), name="api-social-players"),
    path("social/follows/", api.FollowCreateView.as_view(), name="api-social-follows"),
    path(
        "social/follows/<str:username>/",
        api.FollowDeleteView.as_view(),
        name="api-social-follow",
    ),
    path("social/blocks/", api.BlocksView.as_view(), name="api-social-blocks"),
    path("social/blocks/<str:username>/", api.BlockDeleteView.as_view(), name="api-social-block"),
    path("social/mutes/", api.MuteCreateView.as_view(), name="api-social-mutes"),
    path("social/mutes/<str:username>/", api.MuteDeleteView.as_view(), name="api-social-mute"),
    path("social/challenges/", api.ChallengesView.as_view(), name="api-social-challenges"),
    path("social/settings/", api.SocialSettingsView.as_view(), name="api-social-settings"),
    path(
        "social/tournaments/<int:tournament_id>/online/",
        api.EntrantsOnlineView.as_view(),
        name="api-social-entrants-online",
    ),
    path(
        "social/tables/<int:table_id>/chat/",
        api.TableChatView.as_view(),
        name="api-social-table-chat",
    ),
    path(
        "social/challenges/<int:challenge_id>/<str:answer>/",
        api.ChallengeAnswerView.as_view(),
        name="api-social-challenge-answer",
    ),
]
