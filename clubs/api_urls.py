from django.urls import path

from clubs import api, api_seasons

urlpatterns = [
    path("clubs/", api.ClubsView.as_view(), name="api-clubs-list"),
    path(
        "clubs/invitations/<str:token>/accept/",
        api.InvitationAcceptView.as_view(),
        name="api-clubs-invitation-accept",
    ),
    path("clubs/<slug:slug>/", api.ClubView.as_view(), name="api-clubs-detail"),
    path("clubs/<slug:slug>/join/", api.JoinView.as_view(), name="api-clubs-join"),
    path("clubs/<slug:slug>/leave/", api.LeaveView.as_view(), name="api-clubs-leave"),
    path("clubs/<slug:slug>/members/", api.MembersView.as_view(), name="api-clubs-members"),
    path(
        "clubs/<slug:slug>/members/<str:username>/",
        api.MemberView.as_view(),
        name="api-clubs-member",
    ),
    path("clubs/<slug:slug>/requests/", api.RequestsView.as_view(), name="api-clubs-requests"),
    path(
        "clubs/<slug:slug>/requests/<int:request_id>/<str:answer>/",
        api.RequestAnswerView.as_view(),
        name="api-clubs-request-answer",
    ),
    path(
        "clubs/<slug:slug>/invitations/",
        api.InvitationsView.as_view(),
        name="api-clubs-invitations",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/",
        api.InvitationView.as_view(),
        name="api-clubs-invitation",
    ),
    path("clubs/<slug:slug>/events/", api.EventsView.as_view(), name="api-clubs-events"),
    path("clubs/<slug:slug>/messages/", api.MessagesView.as_view(), name="api-clubs-messages"),
    path(
        "clubs/<slug:slug>/membership/",
        api.MembershipView.as_view(),
        name="api-clubs-membership",
    ),
    path(
        "clubs/<slug:slug>/series/", api_seasons.SeriesListView.as_view(), name="api-clubs-series"
    ),
    path("clubs/<slug:slug>/seasons/", api_seasons.SeasonsView.as_view(), name="api-clubs-seasons"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/",
        api_seasons.SeasonTableView.as_view(),
        name="api-clubs-season",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/close/",
        api_seasons.SeasonCloseView.as_view(),
        name="api-clubs-season-close",
    ),
    path(
        "clubs/<slug:slug>/series/<int:series_id>/skip/",
        api_seasons.SeriesSkipView.as_view(),
        name="api-clubs-series-skip",
    ),
    path(
        "clubs/<slug:slug>/series/<int:series_id>/stop/",
        api_seasons.SeriesStopView.as_view(),
        name="api-clubs-series-stop",
    ),
]
