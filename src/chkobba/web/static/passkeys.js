// Passkeys (WebAuthn): the browser's side of adding one to the account and of logging in
// with one (docs/web.md, "Passkeys"). The server makes the options and checks the answers;
// here they are only turned from JSON into what navigator.credentials takes, and back.
import { api } from "./common.js";

/** Whether passkeys can be used here: "ok"; "unsupported" (an old browser, or a page that
 * is not secure: plain http elsewhere than localhost); "address" (the page was opened by
 * an IP address, such as 127.0.0.1, which no passkey can be bound to: open it by name). */
export function passkeyState() {
  if (!(window.PublicKeyCredential && navigator.credentials && window.isSecureContext)) return "unsupported";
  const host = location.hostname;
  if (host.includes(":") || host.startsWith("[") || /^[0-9.]+$/.test(host)) return "address";
  return "ok";
}

function toBytes(b64url) {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
}

function toB64url(buffer) {
  let raw = "";
  for (const byte of new Uint8Array(buffer)) raw += String.fromCharCode(byte);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function descriptors(list) {
  return (list || []).map((c) => ({ ...c, id: toBytes(c.id) }));
}

/** A credential as the JSON the server reads (credential.toJSON() where there is one). */
function credentialJSON(cred) {
  if (typeof cred.toJSON === "function") return cred.toJSON();
  const r = cred.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    response.transports = typeof r.getTransports === "function" ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return { id: cred.id, rawId: toB64url(cred.rawId), type: cred.type, response, clientExtensionResults: {} };
}

/** The signed-in account's passkeys. */
export async function listPasskeys() {
  return (await api("/api/account/passkeys")).passkeys;
}

/** Add a passkey named ``name`` to the signed-in account (the password confirms it). */
export async function addPasskey(name, password) {
  const { options } = await api("/api/account/passkeys/options", { password });
  const publicKey = {
    ...options,
    challenge: toBytes(options.challenge),
    user: { ...options.user, id: toBytes(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  };
  const cred = await navigator.credentials.create({ publicKey });
  return (await api("/api/account/passkeys", { name, credential: credentialJSON(cred) })).passkey;
}

/** Log in with a passkey: one of the typed ``name``'s, or (no name) any of this site's
 * that the browser or the phone holds. With ``signal``, a request the browser offers in
 * the user name field's suggestions (autofill) until it is chosen or ``signal`` aborts. */
export async function logInWithPasskey(name, signal) {
  const { options } = await api("/api/account/passkey-login/options", name ? { name } : {});
  const publicKey = {
    ...options,
    challenge: toBytes(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
  };
  const cred = await navigator.credentials.get(signal ? { publicKey, mediation: "conditional", signal } : { publicKey });
  try {
    return await api("/api/account/passkey-login", { credential: credentialJSON(cred) });
  } catch (e) {
    e.answered = true; // the server's answer to a passkey the player chose
    throw e;
  }
}

/** Whether the browser can offer passkeys among the user name field's suggestions. */
export async function autofillSupported() {
  try {
    return passkeyState() === "ok" && Boolean(await PublicKeyCredential.isConditionalMediationAvailable?.());
  } catch {
    return false;
  }
}

/** Remove one of the signed-in account's passkeys. */
export async function removePasskey(id) {
  return api("/api/account/passkeys/remove", { id });
}
