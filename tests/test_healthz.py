import pytest

pytestmark = pytest.mark.django_db


def test_healthz_reports_each_part_as_json(client, settings):
    settings.GAMES_SCHEDULER = "loop"  # the embedded default's: no Celery worker and beat to ask
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "channel_layer", "broker", "scheduler"}
    assert all(check["ok"] for check in body["checks"].values())


def test_healthz_is_not_cached(client):
    assert "no-cache" in client.get("/healthz").headers["Cache-Control"]
