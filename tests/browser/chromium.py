"""How this project starts Debian's Chromium headless: for the browser tests and for
scripts/screenshots.py alike. The networking flags stop it reaching for hosts that a
closed network refuses."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")

# The features Playwright turns off itself (playwright 1.65, chromiumSwitches.ts). Chromium
# reads only the last `--disable-features` it is given, so the one below must name them again;
# test_chromium.py fails if a newer Playwright turns off one that is not here.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
# The address bar's pop-ups, which Chromium draws as pages of its own: every new window (each
# phone a test opens) loaded two of them in a renderer of their own, though a headless window
# never shows its address bar. Without them the same browser tests take a third less CPU. The
# pages the tests open are drawn exactly as before.
ADDRESS_BAR_POPUPS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
# Chromium keeps a renderer process started ahead for the next page a window opens. A test's
# phone opens one page in a window of its own and then closes, so that process was started
# behind every phone and never used: without it five browser test files took about 6 % less
# CPU (38.7 against 41.2 CPU-seconds, five runs each). Each page still gets its own renderer.
NO_SPARE_RENDERER = ("SpareRendererForSitePerProcess",)

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-features="
    + ",".join((*PLAYWRIGHT_DISABLED_FEATURES, *ADDRESS_BAR_POPUPS, *NO_SPARE_RENDERER)),
]
