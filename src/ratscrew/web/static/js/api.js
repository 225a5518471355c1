// JSON over HTTP; errors come back as {error} with a readable message. Bodies always go as application/json:
// the server refuses any other type, so a page on another site cannot post to it with a plain form.

export async function getJSON(url, headers = {}) {
  const response = await fetch(url, { headers: { Accept: "application/json", ...headers } });
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

export async function sendJSON(url, data, method = "POST", headers = {}) {
  const response = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
    body: JSON.stringify(data ?? {}),
  });
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}
