# uno-bot: a slim image that runs the bot as a non-root user, with its data on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/uno.db

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
COPY card_art ./card_art
# The playground (python -m bot playground) runs the bot against this stand-in Discord.
COPY fake_discord ./fake_discord
RUN pip install . && useradd --create-home --uid 10001 uno && mkdir /data && chown uno /data

USER uno
VOLUME ["/data"]
# The host stops containers with SIGTERM: the bot finishes its saves and closes cleanly.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
