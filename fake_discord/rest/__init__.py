"""The fake's REST API v10, one module per area of Discord's routes."""
