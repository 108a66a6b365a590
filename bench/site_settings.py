"""Settings for the site benchmark (bench/site.py): the production settings, plus a trivial view.

The trivial view lives in bench.site_urls only, so it never exists in production. Static files
are collected under VAR_DIR (the benchmark points VAR_DIR at var/bench/) rather than into the
checkout's staticfiles/, which a deployment owns.
"""

from hanabi_site.settings import *  # noqa: F403
from hanabi_site.settings import VAR_DIR

ROOT_URLCONF = "bench.site_urls"
STATIC_ROOT = VAR_DIR / "static"
