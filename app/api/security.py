"""API-key scaffolding: ``X-API-Key`` maps to the agent ids a caller may touch.

With no keys configured the API is open, and ``credence serve`` then binds to loopback only.
"""

from __future__ import annotations

from app.config import LOOPBACK_HOSTS, Settings
from app.errors import AgentForbidden, AuthenticationRequired

ALL_AGENTS = "*"


def authenticate(settings: Settings, api_key: str | None) -> frozenset[str] | None:
    """The agent ids this key may touch (``{"*"}`` for all); ``None`` when auth is off.

    Raises:
        AuthenticationRequired: keys are configured and this one is missing or unknown.
    """
    if not settings.api_keys:
        return None
    if api_key is None:
        raise AuthenticationRequired("this API needs an X-API-Key header")
    agents = settings.api_keys.get(api_key)
    if agents is None:
        raise AuthenticationRequired("the X-API-Key is not known to this server")
    return frozenset(agents)


def authorize_agent(allowed: frozenset[str] | None, agent_id: str) -> None:
    """Raises AgentForbidden unless the caller's key covers ``agent_id``."""
    if allowed is None or ALL_AGENTS in allowed or agent_id in allowed:
        return
    raise AgentForbidden(agent_id)


def effective_bind_host(settings: Settings, requested_host: str) -> tuple[str, str | None]:
    """The host to bind, and a warning to log when the request was narrowed to loopback."""
    if settings.api_keys or requested_host in LOOPBACK_HOSTS:
        return requested_host, (
            None
            if settings.api_keys
            else "no API keys configured (CREDENCE_API_KEYS): the API is open "
            "to every local process; it listens on loopback only"
        )
    if settings.api_allow_open_bind_without_keys:
        return requested_host, (
            f"no API keys configured, binding {requested_host} because "
            "CREDENCE_API_ALLOW_OPEN_BIND_WITHOUT_KEYS is set"
        )
    return "127.0.0.1", (
        f"no API keys configured (CREDENCE_API_KEYS): refusing to listen on "
        f"{requested_host}; listening on 127.0.0.1 only"
    )
