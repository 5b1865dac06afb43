#!/usr/bin/python3
"""The speech app's web UI: a WAV in (upload or the sample clip), its transcript out, with the
time PocketSphinx took. Listens on 127.0.0.1:8080 only."""
import html
import os
import subprocess
import tempfile
import time

from flask import Flask, jsonify, request

MODEL = "/models/pocketsphinx-en-us"
SAMPLES = "/datasets/speech-samples"  # the sample dataset the provider mounts with the app

app = Flask(__name__)
app.config["MAX_CONTENT_LENGTH"] = 50 * 1024 * 1024


def model_ready():
    return all(os.path.exists(os.path.join(MODEL, p))
               for p in ("en-us/mdef", "en-us.lm.bin", "cmudict-en-us.dict"))


def transcribe(path):
    with tempfile.NamedTemporaryFile(suffix=".wav") as pcm:
        # PocketSphinx wants 16 kHz, mono, 16-bit.
        # -R: repeatable dither, so the same file always gives the same transcript.
        convert = subprocess.run(["sox", "-R", path, "-r", "16000", "-c", "1", "-b", "16", pcm.name],
                                 capture_output=True, text=True, timeout=120)
        if convert.returncode != 0:
            raise RuntimeError(convert.stderr.strip() or "not a sound file sox can read")
        started = time.monotonic()
        result = subprocess.run(["pocketsphinx_continuous", "-infile", pcm.name,
                                 "-hmm", os.path.join(MODEL, "en-us"),
                                 "-lm", os.path.join(MODEL, "en-us.lm.bin"),
                                 "-dict", os.path.join(MODEL, "cmudict-en-us.dict")],
                                capture_output=True, text=True, timeout=600)
        seconds = time.monotonic() - started
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "failed")
    text = " ".join(line.strip() for line in result.stdout.splitlines() if line.strip())
    return {"text": text, "seconds": round(seconds, 3)}


@app.get("/healthz")
def healthz():
    return (jsonify({"ready": model_ready()}), 200 if model_ready() else 503)


@app.get("/api/samples")
def api_samples():
    names = sorted(n[:-4] for n in os.listdir(SAMPLES) if n.endswith(".wav")) if os.path.isdir(SAMPLES) else []
    return jsonify(names)


@app.post("/api/transcribe")
def api_transcribe():
    if not model_ready():
        return jsonify({"error": f"the model is not mounted at {MODEL}"}), 503
    sample = request.form.get("sample") or request.args.get("sample")
    try:
        if sample:
            path = os.path.join(SAMPLES, os.path.basename(sample) + ".wav")
            if not os.path.exists(path):
                return jsonify({"error": f"no sample {sample}"}), 404
            return jsonify(transcribe(path))
        upload = request.files.get("audio")
        if upload is None:
            return jsonify({"error": "send a WAV file (field 'audio') or a sample name"}), 400
        with tempfile.NamedTemporaryFile(suffix=".wav") as f:
            upload.save(f.name)
            return jsonify(transcribe(f.name))
    except RuntimeError as error:
        return jsonify({"error": str(error)}), 422


PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>CardHour speech to text</title>
<style>body{font:15px system-ui,sans-serif;max-width:56rem;margin:2rem auto;color:#222}
pre{background:#f4f4f4;padding:1rem;white-space:pre-wrap}</style></head><body>
<h1>Speech to text (English)</h1><p>PocketSphinx with the library's model (%(model)s).</p>
<form id="f"><input type="file" name="audio" accept="audio/wav"> or sample
<select name="sample"><option value="">-</option>%(options)s</select> <button>Transcribe</button></form>
<div id="out"></div><script>
const out = document.getElementById('out');
document.getElementById('f').onsubmit = async e => {
  e.preventDefault(); out.textContent = 'Listening...';
  const r = await fetch('api/transcribe', {method: 'POST', body: new FormData(e.target)});
  const j = await r.json();
  if (!r.ok) { out.textContent = j.error; return; }
  out.innerHTML = `<p>${j.seconds} s</p><pre></pre>`; out.querySelector('pre').textContent = j.text;
};
</script></body></html>"""


@app.get("/")
def index():
    names = sorted(n[:-4] for n in os.listdir(SAMPLES) if n.endswith(".wav")) if os.path.isdir(SAMPLES) else []
    options = "".join(f'<option>{html.escape(n)}</option>' for n in names)
    return PAGE % {"model": html.escape(MODEL if model_ready() else "not mounted"), "options": options}


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=8080, threaded=True)
