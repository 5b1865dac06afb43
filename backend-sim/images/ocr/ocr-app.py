#!/usr/bin/python3
"""The OCR app's web UI: an image in (upload, paste or one of the sample scans), its text out,
with each word's confidence and the time Tesseract took. Listens on 127.0.0.1:8080 only."""
import csv
import html
import io
import os
import subprocess
import tempfile
import time

from flask import Flask, jsonify, request

MODELS = {"eng": "/models/tesseract-eng/eng.traineddata",
          "chi_sim": "/models/tesseract-chi-sim/chi_sim.traineddata"}
# The sample dataset the provider mounts with the app (read-only).
SAMPLE_DIRS = ["/datasets/ocr-samples"]
TESSDATA = "/run/cardhour/tessdata"

app = Flask(__name__)
app.config["MAX_CONTENT_LENGTH"] = 20 * 1024 * 1024


def prepare_tessdata():
    """Tesseract wants one folder: links to the mounted networks (and the image's osd)."""
    os.makedirs(TESSDATA, exist_ok=True)
    osd = "/usr/share/tesseract-ocr/5/tessdata/osd.traineddata"
    for name, path in list(MODELS.items()) + [("osd", osd)]:
        link = os.path.join(TESSDATA, name + ".traineddata")
        if os.path.exists(path) and not os.path.lexists(link):
            os.symlink(path, link)


def languages():
    return [name for name, path in MODELS.items() if os.path.exists(path)]


def sample_dir():
    for d in SAMPLE_DIRS:
        if os.path.isdir(d):
            return d
    return None


def samples():
    d = sample_dir()
    if not d:
        return []
    out = []
    for name in sorted(os.listdir(d)):
        if name.endswith(".png"):
            base = name[:-4]
            lang_file = os.path.join(d, base + ".lang")
            lang = open(lang_file, encoding="utf-8").read().strip() if os.path.exists(lang_file) else "eng"
            out.append({"name": base, "lang": lang})
    return out


def ocr(image_path, lang):
    started = time.monotonic()
    # tessedit_create_tsv rather than the "tsv" config: configs live in the package's tessdata.
    result = subprocess.run(["tesseract", "--tessdata-dir", TESSDATA, image_path, "stdout", "-l", lang,
                             "-c", "tessedit_create_tsv=1"], capture_output=True, text=True, timeout=120)
    seconds = time.monotonic() - started
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip() or "tesseract failed")
    words, lines, current, last_key = [], [], [], None
    for row in csv.DictReader(io.StringIO(result.stdout), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (row.get("text") or "").strip()
        if row.get("level") != "5" or not text:
            continue
        key = (row["block_num"], row["par_num"], row["line_num"])
        if key != last_key and current:
            lines.append(current)
            current = []
        last_key = key
        current.append(text)
        words.append({"text": text, "confidence": round(float(row["conf"]), 1)})
    if current:
        lines.append(current)
    joiner = "" if lang.startswith("chi") else " "
    text = "\n".join(joiner.join(line) for line in lines)
    mean = round(sum(w["confidence"] for w in words) / len(words), 1) if words else 0.0
    return {"text": text, "words": words, "mean_confidence": mean, "seconds": round(seconds, 3),
            "lang": lang}


@app.get("/healthz")
def healthz():
    ready = bool(languages()) and subprocess.run(["tesseract", "--version"], capture_output=True).returncode == 0
    return (jsonify({"ready": ready, "languages": languages()}), 200 if ready else 503)


@app.get("/api/samples")
def api_samples():
    return jsonify(samples())


@app.post("/api/ocr")
def api_ocr():
    lang = request.form.get("lang") or request.args.get("lang") or "chi_sim+eng"
    if any(part not in languages() for part in lang.split("+")):
        return jsonify({"error": f"language {lang} is not mounted (have {languages()})"}), 400
    sample = request.form.get("sample") or request.args.get("sample")
    if sample:
        match = [s for s in samples() if s["name"] == sample]
        if not match:
            return jsonify({"error": f"no sample {sample}"}), 404
        if not (request.form.get("lang") or request.args.get("lang")):
            lang = match[0]["lang"]
        return jsonify(ocr(os.path.join(sample_dir(), sample + ".png"), lang))
    upload = request.files.get("image")
    if upload is None:
        return jsonify({"error": "send an image (field 'image') or a sample name"}), 400
    with tempfile.NamedTemporaryFile(suffix=os.path.splitext(upload.filename or "")[1] or ".png") as f:
        upload.save(f.name)
        try:
            return jsonify(ocr(f.name, lang))
        except RuntimeError as error:
            return jsonify({"error": str(error)}), 422


PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>CardHour OCR</title>
<style>body{font:15px system-ui,sans-serif;max-width:56rem;margin:2rem auto;color:#222}
pre{background:#f4f4f4;padding:1rem;white-space:pre-wrap}td{padding:0 .6rem}
.low{color:#b00}</style></head><body><h1>OCR (Chinese and English)</h1>
<p>Tesseract with the library's models: %(langs)s. Samples from %(samples)s.</p>
<form id="f"><input type="file" name="image" accept="image/*"> or sample
<select name="sample"><option value="">-</option>%(options)s</select>
<select name="lang"><option value="">auto</option><option>chi_sim+eng</option><option>eng</option>
<option>chi_sim</option></select> <button>Read text</button></form>
<p>Or paste an image (Ctrl+V) anywhere on the page.</p><div id="out"></div>
<script>
const out = document.getElementById('out');
async function send(data) {
  out.textContent = 'Reading...';
  const r = await fetch('api/ocr', {method: 'POST', body: data});
  const j = await r.json();
  if (!r.ok) { out.textContent = j.error; return; }
  const rows = j.words.map(w => `<tr><td>${w.text}</td><td class="${w.confidence < 60 ? 'low' : ''}">` +
    `${w.confidence}</td></tr>`).join('');
  out.innerHTML = `<p>${j.words.length} words in ${j.seconds} s, mean confidence ${j.mean_confidence}` +
    ` (${j.lang})</p><pre></pre><table><tr><th>word</th><th>confidence</th></tr>${rows}</table>`;
  out.querySelector('pre').textContent = j.text;
}
document.getElementById('f').onsubmit = e => { e.preventDefault(); send(new FormData(e.target)); };
document.onpaste = e => {
  const item = [...e.clipboardData.items].find(i => i.type.startsWith('image/'));
  if (item) { const d = new FormData(); d.append('image', item.getAsFile(), 'pasted.png'); send(d); }
};
</script></body></html>"""


@app.get("/")
def index():
    options = "".join(f'<option value="{html.escape(s["name"])}">{html.escape(s["name"])}</option>'
                      for s in samples())
    return PAGE % {"langs": html.escape(", ".join(languages()) or "none mounted"),
                   "samples": html.escape(sample_dir() or "nowhere"), "options": options}


if __name__ == "__main__":
    prepare_tessdata()
    app.run(host="127.0.0.1", port=8080, threaded=True)
