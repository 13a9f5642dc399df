from django.urls import path

from club import api

urlpatterns = [
    path("club/friends/", api.FriendsView.as_view(), name="api-club-friends"),
    path("club/players/", api.PlayersSearchView.as_view(), name="api-club-players"),
    path("club/follows/", api.FollowCreateView.as_view(), name="api-club-follows"),
    path(
        "club/follows/<str:username>/",
        api.FollowDeleteView.as_view(),
        name="api-club-follow",
    ),
    path("club/blocks/", api.BlocksView.as_view(), name="api-club-blocks"),
    path("club/blocks/<str:username>/", api.BlockDeleteView.as_view(), name="api-club-block"),
    path("club/mutes/", api.MuteCreateView.as_view(), name="api-club-mutes"),
    path("club/mutes/<str:username>/", api.MuteDeleteView.as_view(), name="api-club-mute"),
    path("club/challenges/", api.ChallengesView.as_view(), name="api-club-challenges"),
    path("club/settings/", api.SocialSettingsView.as_view(), name="api-club-settings"),
    path(
        "club/tournaments/<int:tournament_id>/online/",
        api.EntrantsOnlineView.as_view(),
        name="api-club-entrants-online",
    ),
    path(
        "club/tables/<int:table_id>/chat/", api.TableChatView.as_view(), name="api-club-table-chat"
    ),
    path(
        "club/challenges/<int:challenge_id>/<str:answer>/",
        api.ChallengeAnswerView.as_view(),
        name="api-club-challenge-answer",
    ),
]
