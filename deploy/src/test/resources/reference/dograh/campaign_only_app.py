"""Minimal FastAPI app that mounts ONLY Dograh's own campaign router
(api/routes/campaign.py, unmodified) under /api/v1.

campaign.py imports, at module level, services used only by its OTHER
handlers (start/pause/redial/report/source download).  Importing them for
real drags in the whole voice pipeline (pipecat services, VAD, WebRTC,
telephony providers, arq/redis, S3/minio).  They are replaced here by inert
stub modules; the GET /api/v1/campaign/ handler, its auth dependency
(api.services.auth.depends.get_user), the DB client (api.db.db_client) and
the SQLAlchemy models are the reference's real code.
"""
import os
import sys
import types


def _stub(name, is_pkg=False, **attrs):
    mod = types.ModuleType(name)
    if is_pkg:
        mod.__path__ = []
    for k, v in attrs.items():
        setattr(mod, k, v)
    sys.modules[name] = mod
    return mod


class _Unused:
    """Placeholder for objects only used by the non-list campaign handlers."""

    def __init__(self, *a, **k):
        pass

    def __getattr__(self, item):
        raise RuntimeError(f"stubbed for the benchmark: {item}")


class _Exc(Exception):
    pass


def _unused_fn(*a, **k):
    raise RuntimeError("stubbed for the benchmark")


_stub("api.services.campaign.runner", campaign_runner_service=_Unused())
_stub("api.services.campaign.source_sync", CampaignSourceSyncService=_Unused)
_stub("api.services.campaign.source_sync_factory", get_sync_service=_unused_fn)
_stub("api.services.quota_service", authorize_workflow_run_start=_unused_fn)
_stub("api.services.reports", is_pkg=True, generate_campaign_report_csv=_unused_fn)
_stub("api.services.storage", storage_fs=_Unused())
_stub("api.services.telephony", is_pkg=True)
_stub(
    "api.services.telephony.outbound_readiness",
    OutboundConfigurationNotFoundError=_Exc,
    OutboundSetupIncompleteError=_Exc,
    resolve_outbound_configuration_id=_unused_fn,
)

from fastapi import FastAPI  # noqa: E402

if os.environ.get("DOGRAH_SETUP_LOGGING", "1") == "1":
    # Same logging setup app.py runs first thing (loguru sinks, level from LOG_LEVEL).
    from api.logging_config import setup_logging  # noqa: E402

    setup_logging()

from api.routes.campaign import router as campaign_router  # noqa: E402

API_PREFIX = "/api/v1"
app = FastAPI(title="Dograh API (campaign router only)", openapi_url=f"{API_PREFIX}/openapi.json")

# Same global CORS middleware app.py installs in DEPLOYMENT_MODE=oss.
# (app.py also adds PublicEmbedCORSMiddleware, a pass-through for non-embed
# paths, and mounts the MCP app at /api/v1/mcp; both are left out here.)
from fastapi.middleware.cors import CORSMiddleware  # noqa: E402

app.add_middleware(
    CORSMiddleware,
    allow_origins=["*"],
    allow_credentials=False,
    allow_methods=["*"],
    allow_headers=["*"],
)
app.include_router(campaign_router, prefix=API_PREFIX)
