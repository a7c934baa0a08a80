# warhost in a container: `docker build -t warhost .` then see README.md, "Run it as a service".
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/warhost.db \
    INSTANCE_NAME=warhost \
    HEALTH_HOST=0.0.0.0 \
    HEALTH_PORT=8080 \
    DRAW_WORKERS=1

RUN groupadd --system --gid 10001 warhost \
    && useradd --system --uid 10001 --gid warhost --home-dir /app --shell /usr/sbin/nologin warhost \
    && mkdir /data \
    && chown warhost:warhost /data

WORKDIR /app
COPY pyproject.toml README.md alembic.ini ./
COPY bot ./bot
COPY db ./db
COPY engine ./engine
COPY render ./render
RUN pip install .

USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4)"]
CMD ["python", "-m", "bot"]
