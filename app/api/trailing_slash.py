"""Paths take no trailing slash, and one sent with it is not redirected.

Starlette's default answer to ``GET /v1/agents/`` is a 307 to an absolute URL it builds from the
request (``http://<Host>/v1/agents``): behind a TLS proxy that downgrades to http or names the
internal host. The app turns that off (``redirect_slashes=False``), and the 404 says which path
the client meant (app/api/errors.py).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Match


def path_without_slash(request: Request) -> str | None:
    """The request's path without its trailing slash(es), when a route of the app takes that
    path (any method); None when the path has no trailing slash or none takes it."""
    path: str = request.scope["path"]
    if path == "/" or not path.endswith("/"):
        return None
    stripped = {**request.scope, "path": path.rstrip("/")}
    for route in request.app.router.routes:
        match, _ = route.matches(stripped)
        if match != Match.NONE:
            return str(stripped["path"])
    return None
