"""Run Dograh's own alembic migrations (api/alembic) to head.

One data migration (a2355fc6bdc1) imports the telephony provider registry,
which drags in the whole voice pipeline, only to validate pre-existing
telephony_configurations rows. On an empty database that loop has no rows,
so the registry is replaced with an inert stub here.
"""
import os
import sys
import types

tel = types.ModuleType("api.services.telephony")
tel.__path__ = []
reg = types.ModuleType("api.services.telephony.registry")
reg.get_optional = lambda name: None
reg.names = lambda: []
tel.registry = reg
prov = types.ModuleType("api.services.telephony.providers")
prov.__path__ = []
sys.modules.update({
    "api.services.telephony": tel,
    "api.services.telephony.registry": reg,
    "api.services.telephony.providers": prov,
})

from alembic.config import main  # noqa: E402

os.chdir("/opt/dograh/src/api")
main(argv=["-c", "alembic.ini"] + (sys.argv[1:] or ["upgrade", "head"]))
