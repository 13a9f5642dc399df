"""Limits that hold across processes and proxies: sign-ups per
address for the API and the page together, failed sign-ins per account and per address,
X-Forwarded-For trusted only as far as configured."""

import pytest
from django.core.cache import caches
from rest_framework.test import APIClient

from accounts.limits import client_address
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def few_signups(settings):
    settings.ACCOUNTS_SIGNUP_RATE = "3/hour"


def api_signup(n: int, **extra):
    return APIClient().post(
        "/api/v1/auth/signup/",
        {"username": f"newcomer{n}", "password": "a long passphrase 7"},
        format="json",
        **extra,
    )


def page_signup(client, n: int, **extra):
    data = {
        "username": f"reader{n}",
        "password1": "a long passphrase 7",
        "password2": "a long passphrase 7",
    }
    return client.post("/accounts/signup/", data, **extra)


def test_signups_beyond_the_rate_are_refused_with_the_error_shape(few_signups):
    statuses = [api_signup(n).status_code for n in range(4)]

    assert statuses == [201, 201, 201, 429]
    response = api_signup(9)
    assert response.json()["error"]["code"] == "rate_limited"
    assert int(response["Retry-After"]) > 0


def test_a_fresh_x_forwarded_for_does_not_lift_the_limit(few_signups):
    statuses = [api_signup(n, HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code for n in range(4)]

    assert statuses[-1] == 429


def test_the_sign_up_page_shares_the_apis_count(few_signups, client):
    for n in range(3):
        api_signup(n)

    response = page_signup(client, 1)

    assert response.status_code == 429
    assert "Too many sign-ups from your address" in response.content.decode()


def test_the_count_lives_in_the_shared_cache(few_signups):
    """Another process of the same deployment sees the same count: the throttle's keys
    are in the configured cache (Redis on the full stack), not in a per-process dict."""
    for n in range(3):
        api_signup(n)

    assert any(key.startswith("throttle_signup_") for key in _cache_keys())


def _cache_keys() -> list[str]:
    cache = caches["default"]
    if hasattr(cache, "_cache") and hasattr(cache._cache, "get_client"):
        client = cache._cache.get_client(None)
        return [key.decode().split(":", 2)[2] for key in client.scan_iter(f"{cache.key_prefix}:*")]
    return [key.split(":", 2)[2] for key in cache._cache]


def test_x_forwarded_for_is_ignored_without_trusted_proxies(rf):
    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6", REMOTE_ADDR="10.1.1.1")

    assert client_address(request) == "10.1.1.1"


def test_the_limits_never_read_x_forwarded_for_themselves(rf, settings):
    """Behind proxies the ASGI layer has already made REMOTE_ADDR the client's
    (core/client_address.py, tests/test_client_address.py): reading the header again
    here would count a proxy twice."""
    settings.TRUSTED_PROXIES = 1
    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9", REMOTE_ADDR="10.1.1.1")

    assert client_address(request) == "10.1.1.1"


# ------------------------------------------------------------------ failed sign-ins


def token_attempt(username: str, password: str, address: str = "10.0.0.1"):
    return APIClient().post(
        "/api/v1/auth/token/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_wrong_passwords_for_one_account_lock_it_with_a_lift_time(settings):
    UserFactory(username="alice")
    statuses = [
        token_attempt("alice", f"guess{n}", address=f"10.0.0.{n}").status_code for n in range(6)
    ]

    assert statuses == [400] * (settings.SIGNIN_FAILURES_PER_ACCOUNT - 1) + [429, 429]
    locked = token_attempt("alice", PASSWORD, address="10.9.9.9")
    assert locked.status_code == 429  # even the right password, from anywhere
    assert locked.json()["error"]["code"] == "rate_limited"
    assert "Try again in 15 minutes" in locked.json()["error"]["message"]
    assert 0 < int(locked["Retry-After"]) <= settings.SIGNIN_LOCKOUT_SECONDS


def test_the_lock_lifts_after_its_time(settings, monkeypatch):
    UserFactory(username="alice")
    for n in range(settings.SIGNIN_FAILURES_PER_ACCOUNT):
        token_attempt("alice", f"guess{n}")
    import accounts.limits

    later = accounts.limits.time.time() + settings.SIGNIN_LOCKOUT_SECONDS + 1
    monkeypatch.setattr(accounts.limits.time, "time", lambda: later)

    assert token_attempt("alice", PASSWORD).status_code == 200


def test_one_address_guessing_many_accounts_is_locked(settings):
    settings.SIGNIN_FAILURES_PER_ADDRESS = 4
    for n in range(4):
        UserFactory(username=f"victim{n}")
        token_attempt(f"victim{n}", "guess", address="10.6.6.6")
    UserFactory(username="bystander")

    assert token_attempt("bystander", PASSWORD, address="10.6.6.6").status_code == 429
    assert token_attempt("bystander", PASSWORD, address="10.7.7.7").status_code == 200


def test_a_right_password_clears_the_accounts_count(settings):
    UserFactory(username="alice")
    for _ in range(settings.SIGNIN_FAILURES_PER_ACCOUNT - 1):
        token_attempt("alice", "guess")
    token_attempt("alice", PASSWORD)

    assert token_attempt("alice", "guess").status_code == 400


def test_the_sign_in_form_is_limited_too_and_says_when(client, settings):
    UserFactory(username="alice")
    for n in range(settings.SIGNIN_FAILURES_PER_ACCOUNT):
        client.post("/accounts/login/", {"username": "alice", "password": f"guess{n}"})

    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 200  # the form again, not signed in
    assert "Too many failed sign-ins. Try again in 15 minutes." in response.content.decode()
    assert "_auth_user_id" not in client.session


CACHE_PROBE = "import django; django.setup(); from django.core.cache import caches; print(type(caches['default']).__name__)"


def cache_backend(**variables: str) -> str:
    import os
    import subprocess
    import sys

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")
    }
    env.update(variables, DJANGO_SETTINGS_MODULE="config.settings", LOG_LEVEL="WARNING")
    done = subprocess.run(
        [sys.executable, "-c", CACHE_PROBE],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


def test_the_limits_count_in_redis_on_the_full_stack_and_in_memory_embedded(tmp_path):
    """Every uvicorn worker of the full stack shares the counts (a per-process memory cache
    let each worker allow 60 sign-ups an hour); the one-process default keeps its own."""
    assert cache_backend(REDIS_URL="redis://127.0.0.1:6379/15") == "RedisCache"
    assert cache_backend(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}") == "LocMemCache"


# ------------------------------------------ known devices (lockout must not become a weapon)


def page_attempt(browser, username: str, password: str, address: str = "10.0.0.1"):
    return browser.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def lock_out(username: str, settings, address: str = "10.66.0.{n}") -> None:
    """A stranger's wrong passwords, each from a fresh client."""
    for n in range(settings.SIGNIN_FAILURES_PER_ACCOUNT + 1):
        token_attempt(username, f"guess{n}", address=address.format(n=n))


def known_browser(username: str):
    from django.test import Client

    browser = Client()
    assert page_attempt(browser, username, PASSWORD).status_code == 302
    browser.post("/accounts/logout/")
    return browser


def test_strangers_cannot_lock_the_owner_out_of_his_known_browser(settings):
    UserFactory(username="alice")
    browser = known_browser("alice")
    lock_out("alice", settings)

    assert token_attempt("alice", PASSWORD, address="10.9.9.9").status_code == 429
    assert page_attempt(browser, "alice", PASSWORD, address="10.1.2.3").status_code == 302
    assert "_auth_user_id" in browser.session


def test_a_known_browser_is_locked_by_its_own_wrong_passwords_alone(settings):
    UserFactory(username="alice")
    browser = known_browser("alice")
    for n in range(settings.SIGNIN_FAILURES_PER_ACCOUNT):
        page_attempt(browser, "alice", f"guess{n}")

    response = page_attempt(browser, "alice", PASSWORD)

    assert "Too many failed sign-ins" in response.content.decode()
    assert token_attempt("alice", PASSWORD).status_code == 200  # the account is not locked


def test_a_known_browser_is_not_shut_out_by_its_addresss_lock(settings):
    settings.SIGNIN_FAILURES_PER_ADDRESS = 4
    UserFactory(username="alice")
    browser = known_browser("alice")
    for n in range(4):  # someone at the same club address guesses other accounts
        UserFactory(username=f"victim{n}")
        token_attempt(f"victim{n}", "guess", address="10.6.6.6")

    assert token_attempt("alice", PASSWORD, address="10.6.6.6").status_code == 429
    assert page_attempt(browser, "alice", PASSWORD, address="10.6.6.6").status_code == 302


def test_the_token_api_knows_its_client_by_the_same_cookie(settings):
    UserFactory(username="alice")
    client = APIClient()
    assert client.post("/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}).cookies[
        settings.SIGNIN_DEVICE_COOKIE
    ]
    lock_out("alice", settings)

    response = client.post("/api/v1/auth/token/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 200


def test_a_browser_known_to_one_account_is_a_stranger_to_another(settings):
    UserFactory(username="alice")
    UserFactory(username="bob")
    browser = known_browser("alice")
    lock_out("bob", settings)

    response = page_attempt(browser, "bob", PASSWORD)

    assert "Too many failed sign-ins" in response.content.decode()


def test_a_forged_device_cookie_is_no_device(settings):
    from django.test import Client

    UserFactory(username="alice")
    cookie = known_browser("alice").cookies[settings.SIGNIN_DEVICE_COOKIE].value
    lock_out("alice", settings)
    forged = Client()
    forged.cookies[settings.SIGNIN_DEVICE_COOKIE] = cookie[:-4] + "AAAA"

    assert "Too many failed" in page_attempt(forged, "alice", PASSWORD).content.decode()
