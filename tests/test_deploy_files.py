"""docker-compose.yml, the Dockerfile, the Makefile and README stay in step with the settings.

No Docker engine runs here, so the files are parsed and checked, not run.
"""

import ast
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from django.utils.module_loading import import_string

ROOT = Path(__file__).resolve().parents[1]
APP_SERVICES = ("migrate", "web", "worker-bots", "worker-results", "worker-analysis", "beat")
WORKERS = ("worker-bots", "worker-results", "worker-analysis")


def settings_variables() -> set[str]:
    """Every name config/settings.py (and the app settings it takes from config/*_settings.py)
    reads with ``env(...)``/``env.<cast>(...)``."""
    names = set()
    files = [ROOT / "config" / "settings.py", *sorted((ROOT / "config").glob("*_settings.py"))]
    nodes = [node for path in files for node in ast.walk(ast.parse(path.read_text()))]
    for node in nodes:
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        reads_env = (isinstance(func, ast.Name) and func.id == "env") or (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "env"
        )
        first = node.args[0]
        if reads_env and isinstance(first, ast.Constant) and isinstance(first.value, str):
            names.add(first.value)
    return names


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_settings_read_the_core_variables():
    assert {"DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"} <= (
        settings_variables()
    )


def test_compose_has_its_services_each_long_running_one_with_a_health_check(compose):
    services = compose["services"]

    assert set(services) == {"postgres", "redis", "migrate", "web", "balancer", *WORKERS, "beat"}
    for name, service in services.items():
        if name != "migrate":  # runs once and exits
            assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"


@pytest.mark.parametrize("service", APP_SERVICES)
def test_app_services_only_set_variables_the_settings_read(compose, service):
    environment = compose["services"][service]["environment"]

    assert set(environment) <= settings_variables()
    assert environment["DATABASE_URL"].startswith("postgres://")
    assert "@postgres:5432/" in environment["DATABASE_URL"]
    assert environment["REDIS_URL"].startswith("redis://redis:6379")


def test_compose_database_url_matches_the_postgres_service(compose):
    postgres = compose["services"]["postgres"]["environment"]
    url = compose["services"]["web"]["environment"]["DATABASE_URL"]

    user, password, database = (
        postgres["POSTGRES_USER"],
        postgres["POSTGRES_PASSWORD"],
        (postgres["POSTGRES_DB"]),
    )
    assert url == f"postgres://{user}:{password}@postgres:5432/{database}"


def test_web_serves_the_asgi_application_after_the_migrations_ran_once(compose):
    services = compose["services"]
    command = services["web"]["command"]

    assert services["migrate"]["command"] == "python manage.py migrate --noinput"
    assert services["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    module, attribute = re.search(r"uvicorn (\S+):(\S+)", command).groups()
    assert callable(import_string(f"{module}.{attribute}"))


@pytest.mark.parametrize(("service", "role"), [*((w, "worker") for w in WORKERS), ("beat", "beat")])
def test_workers_and_beat_run_the_project_celery_app(compose, service, role):
    command = compose["services"][service]["command"]

    assert command.startswith(f"celery -A config {role}")
    assert import_string("config.celery_app").main == "thousand"


def test_app_services_wait_for_healthy_dependencies(compose):
    services = compose["services"]

    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("web", *WORKERS, "beat"):
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"
        assert (
            services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        )
    assert services["balancer"]["depends_on"]["web"]["condition"] == "service_healthy"


def test_web_replicas_sit_behind_the_balancer_only(compose):
    services = compose["services"]
    lines = (ROOT / "deploy" / "haproxy.cfg").read_text().splitlines()
    config = "\n".join(line for line in lines if not line.lstrip().startswith("#"))

    assert "ports" not in services["web"]  # so that `--scale web=N` works
    assert services["balancer"]["image"].startswith("haproxy:")
    assert services["balancer"]["ports"] == ["8000:8000"]
    assert "server-template web" in config and "web:8000" in config  # replicas found by DNS
    assert "uri /healthz" in config
    assert "timeout tunnel" in config  # websockets stay open
    assert "cookie" not in config and "stick-table" not in config  # no sticky sessions


def test_exactly_one_beat_and_every_service_restarts(compose):
    services = compose["services"]

    assert services["beat"]["deploy"]["replicas"] == 1
    for name, service in services.items():
        assert service["restart"] == ("no" if name == "migrate" else "unless-stopped"), name


def test_worker_pools_together_consume_every_queue_the_tasks_are_routed_to(compose):
    from config.celery import QUEUES, app

    consumed = set()
    for name in WORKERS:
        queues = re.search(r"--queues (\S+)", compose["services"][name]["command"]).group(1)
        consumed |= set(queues.split(","))
    routed = {
        app.amqp.router.route({}, task)["queue"].name
        for task in app.tasks
        if not task.startswith("celery.")
    }

    assert consumed == set(QUEUES)
    assert routed <= consumed


def test_bot_turns_and_results_go_to_separate_pools():
    from config.celery import app

    def queue(task: str) -> str:
        return app.amqp.router.route({}, task)["queue"].name

    assert queue("games.bot_turn_next") == queue("games.clocks_sweep") == "bots"
    assert queue("games.bot_play_turn") == "bots"
    assert (
        queue("ratings.apply_result")
        == queue("tournaments.record_result")
        == queue("tournaments.tick")
        == "results"
    )


def test_pgbouncer_override_runs_transaction_mode_with_prepared_statements():
    override = yaml.safe_load((ROOT / "docker-compose.pgbouncer.yml").read_text())
    ini = (ROOT / "deploy" / "pgbouncer.ini").read_text()

    assert "pool_mode = transaction" in ini
    assert re.search(r"^max_prepared_statements = [1-9]", ini, re.MULTILINE)
    for name in ("web", *WORKERS, "beat"):
        assert "@pgbouncer:6432/" in override["services"][name]["environment"]["DATABASE_URL"]


def test_dockerfile_installs_from_the_lock_file_with_the_makefiles_uv():
    dockerfile = (ROOT / "Dockerfile").read_text()
    makefile = (ROOT / "Makefile").read_text()
    uv_version = re.search(r"^UV_VERSION := (\S+)$", makefile, re.MULTILINE).group(1)
    python = (ROOT / ".python-version").read_text().strip()

    assert "COPY pyproject.toml uv.lock" in dockerfile
    assert "uv sync --frozen" in dockerfile
    assert f"uv=={uv_version}" in dockerfile
    assert f"FROM python:{python}-slim" in dockerfile


def test_readme_documents_every_variable_the_settings_read():
    readme = (ROOT / "README.md").read_text()

    missing = sorted(name for name in settings_variables() if f"`{name}`" not in readme)
    assert not missing, f"README.md does not mention {missing}"


def test_compose_requires_a_secret_key(compose):  # every app service shares one environment
    for service in APP_SERVICES:
        key = compose["services"][service]["environment"]["DJANGO_SECRET_KEY"]
        assert key.startswith("${DJANGO_SECRET_KEY:?"), service


def test_stack_keeps_its_generated_secret_key_out_of_git():
    stack = (ROOT / "scripts" / "stack").read_text()
    ignored = (ROOT / ".gitignore").read_text().splitlines()

    assert "scripts/secret-key .secret-key" in stack
    assert "/.secret-key" in ignored


def test_secret_key_script_makes_one_private_key_and_keeps_it(tmp_path):
    keyfile = tmp_path / "key"

    def run() -> str:
        done = subprocess.run(
            [ROOT / "scripts" / "secret-key", keyfile], capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    first, second = run(), run()
    assert first == second
    assert len(first) >= 50
    assert keyfile.stat().st_mode & 0o077 == 0


def test_make_lint_names_the_strict_packages_on_one_line():
    done = subprocess.run(
        ["make", "--dry-run", "lint"], cwd=ROOT, capture_output=True, text=True, check=True
    )

    assert any(
        line.endswith(
            "mypy --strict games/engine games/bots analysis/core.py fairplay/screen.py"
            " fairplay/scoring.py"
        )
        for line in done.stdout.splitlines()
    ), done.stdout


def test_scripts_stack_runs_the_projects_virtual_environment_without_it_on_path():
    """As the README says it (``scripts/stack``, not ``make stack``), from a shell whose PATH
    has no .venv: its first step imports psycopg and tries the database (a closed port)."""
    root = Path(__file__).resolve().parents[1]
    venv = str(root / ".venv" / "bin")
    path = ":".join(p for p in os.environ["PATH"].split(":") if p.rstrip("/") != venv)
    env = {
        "PATH": path,
        "HOME": os.environ.get("HOME", "/tmp"),
        "DATABASE_URL": "postgres://postgres@127.0.0.1:1/nothing_here",
        "REDIS_URL": "redis://127.0.0.1:1/0",
        "DJANGO_SECRET_KEY": "x" * 50,
        "HAPROXY": "none",
    }
    done = subprocess.run(
        [str(root / "scripts" / "stack")], env=env, capture_output=True, text=True, timeout=60
    )
    assert "OperationalError" in done.stderr, done.stderr
