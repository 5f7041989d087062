/**
 * The page `/` serves until the web app is built into the server (issue 6): it names the product
 * and checks the API's health from the browser, so a person can see the server is up.
 */
export function statusPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rideway</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f6f8; color: #1c2733; }
  main { max-width: 32rem; margin: 1rem; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { margin: 0 0 .5rem; }
  #health { font-weight: 600; }
  .ok { color: #1b7f3b; } .down { color: #b3261e; }
</style>
</head>
<body>
<main>
  <h1>Rideway</h1>
  <p>Taxi and parcel delivery: riders book and pay, drivers run trips and earn, fleet admins manage their drivers.</p>
  <p>API status: <span id="health">checking…</span></p>
</main>
<script>
  const el = document.getElementById('health');
  fetch('/api/health').then((r) => r.json()).then((body) => {
    el.textContent = body.status === 'ok' ? 'running' : 'unavailable';
    el.className = body.status === 'ok' ? 'ok' : 'down';
  }).catch(() => { el.textContent = 'unavailable'; el.className = 'down'; });
</script>
</body>
</html>`;
}
