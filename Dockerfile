# The service image: web (uvicorn), worker and beat all run from it (docker-compose.yml).
# Dependencies come from the same uv.lock that `make run` and `make test` install.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    UV_PROJECT_ENVIRONMENT=/opt/venv \
    UV_PYTHON_DOWNLOADS=never \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    PATH=/opt/venv/bin:$PATH

RUN pip install --no-cache-dir uv==0.13.9

WORKDIR /app
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --no-install-project

COPY . .
RUN DJANGO_STATIC_MANIFEST=true python manage.py collectstatic --noinput --verbosity 0 \
    && useradd --create-home --uid 1000 thousand \
    && chown -R thousand /app
USER thousand

EXPOSE 8000
# No permessage-deflate on the websockets: it costs more CPU than its bandwidth is worth
# for updates of 1-2 KB (docs/benchmarks.md). No proxy headers: behind a proxy, set
# DJANGO_TRUSTED_PROXIES (docs/security.md); uvicorn's own would trust a client's header.
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--workers", "2", "--no-proxy-headers", \
     "--ws-per-message-deflate", "false"]
