"""docker-compose.yml, the Dockerfile, the Makefile and README stay in step with the settings.

No Docker engine runs here, so the files are parsed and checked, not run.
"""

import ast
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from django.utils.module_loading import import_string

ROOT = Path(__file__).resolve().parents[1]
APP_SERVICES = ("web", "worker", "beat")


def settings_variables() -> set[str]:
    """Every name config/settings.py reads with ``env(...)``/``env.<cast>(...)``."""
    tree = ast.parse((ROOT / "config" / "settings.py").read_text())
    names = set()
    for node in ast.walk(tree):
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


def test_compose_has_the_five_services_each_with_a_health_check(compose):
    services = compose["services"]

    assert set(services) == {"postgres", "redis", "web", "worker", "beat"}
    for name, service in services.items():
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

    user, password, database = postgres["POSTGRES_USER"], postgres["POSTGRES_PASSWORD"], (
        postgres["POSTGRES_DB"]
    )
    assert url == f"postgres://{user}:{password}@postgres:5432/{database}"


def test_web_serves_the_asgi_application_after_migrating(compose):
    command = compose["services"]["web"]["command"]

    assert "manage.py migrate" in command
    module, attribute = re.search(r"uvicorn (\S+):(\S+)", command).groups()
    assert callable(import_string(f"{module}.{attribute}"))


@pytest.mark.parametrize(("service", "role"), [("worker", "worker"), ("beat", "beat")])
def test_worker_and_beat_run_the_project_celery_app(compose, service, role):
    command = compose["services"][service]["command"]

    assert command.startswith(f"celery -A config {role}")
    assert import_string("config.celery_app").main == "thousand"


def test_app_services_wait_for_healthy_dependencies(compose):
    services = compose["services"]

    assert services["web"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["web"]["depends_on"]["redis"]["condition"] == "service_healthy"
    for name in ("worker", "beat"):
        assert services[name]["depends_on"]["web"]["condition"] == "service_healthy"


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


def test_compose_requires_a_secret_key(compose):
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
        line.endswith("mypy --strict games/engine games/bots") for line in done.stdout.splitlines()
    ), done.stdout
