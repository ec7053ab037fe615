"""Cross-origin reads of ``/browser/`` by Neo4j Browser, and nothing else.

Browser fetches a guide with ``fetch`` and two no-cache headers (so the browser first sends a
preflight) and a style sheet with a plain GET, both from its own origin (``http://127.0.0.1:7474``
by default). Only ``GET`` of the ``/browser/`` paths from a loopback origin is allowed: Browser's
origin is the Neo4j HTTP port on this machine (``CREDENCE_NEO4J_HTTP_PORT`` can move it), and no
other route answers cross-origin requests.
"""

from __future__ import annotations

from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

PREFIX = "/browser/"
# Any port of the loopback hosts: Browser served by this machine's Neo4j.
LOOPBACK_ORIGIN = r"http://(127\.0\.0\.1|localhost|\[::1\])(:[0-9]{1,5})?"
# What Browser's guide fetch sends (shared/services/remote.ts in neo4j-browser).
REQUEST_HEADERS = ("cache-control", "pragma")


class BrowserCors:
    """Starlette's CORS middleware, applied to ``/browser/`` paths only."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app
        self._cors = CORSMiddleware(
            app,
            allow_origin_regex=LOOPBACK_ORIGIN,
            allow_methods=["GET"],
            allow_headers=list(REQUEST_HEADERS),
            max_age=600,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope["path"]).startswith(PREFIX):
            await self._cors(scope, receive, send)
            return
        await self._app(scope, receive, send)
