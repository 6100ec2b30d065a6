"""docs/callbacks.md's serverless handlers run as written: the Python function's
``lambda_handler`` and the JavaScript function's default export, each given a call
signed as the server signs it (and a forged one), answer the move (and refuse).
"""

from __future__ import annotations

import base64
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from server.services.notifications import signature
from tests.sdk.test_endpoint import call_body

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "callbacks.md").read_text(encoding="utf-8")
SECRET = "cbs_docs_page_secret"
MY_BOT = """
from client_sdk import Bot


class FirstLegal(Bot):
    def choose_move(self, view):
        return view["legal_moves"][0]
"""


def _now() -> int:
    return int(time.time())


def block(language: str, first_line: str) -> str:
    """The page's fenced ``language`` block that contains ``first_line``."""
    for body in re.findall(rf"```{language}\n(.*?)\n```", PAGE, re.DOTALL):
        if first_line in body:
            return str(body)
    raise AssertionError(f"no {language} block with {first_line!r} in docs/callbacks.md")


def test_the_python_function_answers_a_signed_call_and_refuses_a_forged_one(
    tmp_path: Path, monkeypatch
) -> None:
    (tmp_path / "lambda_function.py").write_text(block("python", "def lambda_handler"))
    (tmp_path / "mybot.py").write_text(MY_BOT)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PARLOUR_CALLBACK_SECRET", SECRET)
    monkeypatch.delitem(sys.modules, "mybot", raising=False)
    path = tmp_path / "lambda_function.py"
    spec = importlib.util.spec_from_file_location("lambda_function", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def event(body: bytes, sig: str, encoded: bool) -> dict:
        text = base64.b64encode(body).decode() if encoded else body.decode()
        return {"body": text, "isBase64Encoded": encoded, "headers": {"parlour-signature": sig}}

    for encoded in (False, True):
        body = call_body()
        answer = module.lambda_handler(event(body, signature(SECRET, body, _now()), encoded), None)
        assert answer["statusCode"] == 200
        assert json.loads(answer["body"]) == {"move": {"type": "pass"}}
    body = call_body()
    forged = module.lambda_handler(event(body, signature("cbs_not", body, _now()), False), None)
    assert forged["statusCode"] == 401


def test_the_javascript_function_answers_a_signed_call_and_refuses_a_forged_one(
    tmp_path: Path,
) -> None:
    node = shutil.which("node")
    assert node, "node is needed to run the page's JavaScript function"
    shutil.copy(ROOT / "bots" / "examples" / "callback_bot.mjs", tmp_path / "callback_bot.mjs")
    (tmp_path / "function.mjs").write_text(block("javascript", "export default async function"))
    good, bad = call_body(), call_body()
    calls = [
        (good.decode(), signature(SECRET, good, _now())),
        (bad.decode(), signature("cbs_not", bad, _now())),
    ]
    driver = (
        'const { default: fn } = await import("./function.mjs");\n'
        "const out = [];\n"
        f"for (const [body, sig] of {json.dumps(calls)}) {{\n"
        '  const request = new Request("https://bot.example/turn", {method: "POST", body, '
        'headers: {"Parlour-Signature": sig, "Content-Type": "application/json"}});\n'
        "  const response = await fn(request);\n"
        "  out.push([response.status, await response.json()]);\n"
        "}\n"
        "console.log(JSON.stringify(out));\n"
    )
    (tmp_path / "driver.mjs").write_text(driver)
    done = subprocess.run(
        [node, "driver.mjs"],
        cwd=tmp_path,
        env={"PARLOUR_CALLBACK_SECRET": SECRET, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    (status, answer), (refused, _) = json.loads(done.stdout)
    assert status == 200 and answer["move"] in json.loads(good)["view"]["legal_moves"]
    assert refused == 401
