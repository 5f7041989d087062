/**
 * The page `/` serves when the web app was not built (API-only work): the product's name
 * and the server's state, rendered by the server itself.
 */
export function statusPage(appName: string, uptimeSeconds: number): string {
  const name = appName.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f6f8; color: #1c2733; }
  main { max-width: 32rem; margin: 1rem; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { margin: 0 0 .5rem; }
  #health { font-weight: 600; color: #1b7f3b; }
  code { background: #eef1f4; padding: .1rem .3rem; border-radius: 4px; }
</style>
</head>
<body>
<main>
  <h1>${name}</h1>
  <p>Taxi and parcel delivery: riders book and pay, drivers run trips and earn, fleet admins manage their drivers.</p>
  <p>API status: <span id="health">running</span> (up ${uptimeSeconds} s). The API is described at <code>/api/openapi.json</code>.</p>
</main>
</body>
</html>`;
}
