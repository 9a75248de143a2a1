# Two stages: build a virtual environment with the pinned dependencies, then copy it into a
# slim image that runs as an unprivileged user with SQLite kept on a volume.
FROM python:3.11-slim-bookworm AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY thirty thirty
COPY games games
RUN python -m venv /venv && /venv/bin/pip install -c constraints.txt .
COPY . .
RUN DEBUG=false SECRET_KEY=build-only /venv/bin/python manage.py compilemessages --ignore=.venv \
 && DEBUG=false SECRET_KEY=build-only THIRTY_COLLECTED_STATIC=true /venv/bin/python manage.py collectstatic --noinput

FROM python:3.11-slim-bookworm
ENV PATH=/venv/bin:$PATH PYTHONUNBUFFERED=1 DEBUG=false HOST=0.0.0.0 PORT=8000
RUN useradd --create-home --uid 1000 thirty && mkdir -p /app/data && chown thirty /app/data
COPY --from=build /venv /venv
COPY --from=build --chown=thirty /app /app
WORKDIR /app
USER thirty
VOLUME /app/data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s CMD python -c "import urllib.request,os; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/healthz')"
# Migrates, then runs granian: the same entry point as `make serve`.
CMD ["python", "-m", "thirty.serve"]
