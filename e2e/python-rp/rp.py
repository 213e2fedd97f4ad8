"""A relying party written with Authlib (Python), one step per run, for e2e/standard-rp.e2e.test.ts.

Reads one JSON object on stdin: {"step": ..., "issuer", "client_id", "client_secret", ...step's fields}
and prints one JSON object on stdout. An OAuth error answer is {"error", "error_description", "status"},
not a failure of the script. Discovery is Authlib's own reading of /.well-known/openid-configuration.

Steps:
  authorize   {redirect_uri, scope, extra?}  -> {url, state, nonce, code_verifier}
  redeem      {redirect_uri, callback, state, nonce, code_verifier, max_age?}
                                            -> {token, claims} (ID token verified against jwks_uri)
  userinfo    {access_token}                -> the UserInfo answer
  refresh     {refresh_token}               -> {token, claims}
  revoke      {token, token_type_hint?}     -> {status}
  introspect  {token}                       -> the introspection answer
  end_session {id_token_hint, post_logout_redirect_uri, state}
                                            -> {url} (RP-Initiated Logout 1.0 on discovery's end_session_endpoint)
  logout_token {logout_token, sid}          -> {claims} of a verified Back-Channel Logout 1.0 token, or an error
"""

import json
import sys
import time
import warnings

import requests
from authlib.common.errors import AuthlibBaseError
from authlib.common.security import generate_token
from authlib.common.urls import add_params_to_uri
from authlib.integrations.requests_client import OAuth2Session

warnings.simplefilter("ignore")  # deprecation notices of authlib.jose go to no one's screen
from authlib.jose import JoseError, JsonWebKey, JsonWebToken, jwt  # noqa: E402
from authlib.oidc.core import CodeIDToken, IDToken  # noqa: E402


def metadata(issuer):
    res = requests.get(issuer.rstrip("/") + "/.well-known/openid-configuration", timeout=10)
    res.raise_for_status()
    return res.json()


def session(cfg, **kw):
    return OAuth2Session(
        cfg["client_id"],
        cfg["client_secret"],
        token_endpoint_auth_method="client_secret_basic",
        **kw,
    )


def verify_id_token(meta, cfg, id_token, nonce=None, claims_cls=CodeIDToken, access_token=None, max_age=None):
    """The ID token's signature against jwks_uri, then iss, aud, exp, iat, nonce (OIDC Core 3.1.3.7)."""
    keys = JsonWebKey.import_key_set(requests.get(meta["jwks_uri"], timeout=10).json())
    options = {
        "iss": {"essential": True, "value": meta["issuer"]},
        "aud": {"essential": True, "value": cfg["client_id"]},
    }
    params = {"client_id": cfg["client_id"]}
    if nonce:
        params["nonce"] = nonce
    if access_token:
        params["access_token"] = access_token
    if max_age is not None:
        params["max_age"] = max_age
    claims = jwt.decode(id_token, keys, claims_cls=claims_cls, claims_options=options, claims_params=params)
    claims.validate(leeway=5)
    return dict(claims)


BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout"


def verify_logout_token(meta, cfg):
    """Back-Channel Logout 1.0 2.6: signature against jwks_uri (RS256), iss, aud, iat, jti, typ logout+jwt,
    the events member with the back-channel logout event, no nonce, and sid equal to the ID token's."""
    keys = JsonWebKey.import_key_set(requests.get(meta["jwks_uri"], timeout=10).json())
    options = {
        "iss": {"essential": True, "value": meta["issuer"]},
        "aud": {"essential": True, "value": cfg["client_id"]},
        "iat": {"essential": True},
        "jti": {"essential": True},
        "events": {"essential": True},
        "sid": {"essential": True, "value": cfg["sid"]},
    }
    try:
        claims = JsonWebToken(["RS256"]).decode(cfg["logout_token"], keys, claims_options=options)
        claims.validate(leeway=5)
    except JoseError as err:
        return {"error": err.error, "error_description": err.description}
    if claims.header.get("typ") != "logout+jwt":
        return {"error": "invalid_typ", "error_description": f"typ is {claims.header.get('typ')}"}
    events = claims["events"]
    if not isinstance(events, dict) or not isinstance(events.get(BACKCHANNEL_LOGOUT_EVENT), dict):
        return {"error": "invalid_events", "error_description": "no back-channel logout event"}
    if "nonce" in claims:
        return {"error": "invalid_nonce", "error_description": "a logout token must not carry a nonce"}
    return {"claims": dict(claims)}


def oauth_error(err, status=None):
    return {
        "error": getattr(err, "error", None) or type(err).__name__,
        "error_description": getattr(err, "description", None) or str(err),
        "status": status,
    }


def main():
    cfg = json.load(sys.stdin)
    meta = metadata(cfg["issuer"])
    step = cfg["step"]
    if step == "authorize":
        client = session(cfg, scope=cfg["scope"], redirect_uri=cfg["redirect_uri"], code_challenge_method="S256")
        verifier = generate_token(48)
        nonce = generate_token(20)
        url, state = client.create_authorization_url(
            meta["authorization_endpoint"], code_verifier=verifier, nonce=nonce, **cfg.get("extra", {})
        )
        return {"url": url, "state": state, "nonce": nonce, "code_verifier": verifier}
    if step == "redeem":
        client = session(cfg, redirect_uri=cfg["redirect_uri"], state=cfg["state"])
        try:
            token = client.fetch_token(
                meta["token_endpoint"],
                authorization_response=cfg["callback"],
                code_verifier=cfg["code_verifier"],
            )
        except AuthlibBaseError as err:
            return oauth_error(err)
        claims = verify_id_token(
            meta, cfg, token["id_token"], cfg["nonce"], access_token=token["access_token"], max_age=cfg.get("max_age")
        )
        if cfg.get("max_age") is not None:
            # OIDC Core 3.1.2.1: with max_age, auth_time is required and no older than max_age (+ leeway).
            if "auth_time" not in claims or claims["auth_time"] + cfg["max_age"] + 5 < time.time():
                return {"error": "auth_time_too_old", "claims": claims}
        return {"token": dict(token), "claims": claims}
    if step == "userinfo":
        client = session(cfg, token={"access_token": cfg["access_token"], "token_type": "Bearer"})
        res = client.get(meta["userinfo_endpoint"])
        body = res.json() if res.content else {}
        return {"status": res.status_code, "body": body, "www_authenticate": res.headers.get("WWW-Authenticate")}
    if step == "refresh":
        client = session(cfg)
        try:
            token = client.refresh_token(meta["token_endpoint"], refresh_token=cfg["refresh_token"])
        except AuthlibBaseError as err:
            return oauth_error(err)
        if "error" in token:
            return {"error": token["error"], "error_description": token.get("error_description")}
        # A refreshed ID token has no nonce (Core 12.2): checked as Core 3.1.3.7 says otherwise.
        claims = verify_id_token(meta, cfg, token["id_token"], claims_cls=IDToken)
        return {"token": dict(token), "claims": claims}
    if step == "revoke":
        res = session(cfg).revoke_token(
            meta["revocation_endpoint"], token=cfg["token"], token_type_hint=cfg.get("token_type_hint")
        )
        return {"status": res.status_code}
    if step == "introspect":
        res = session(cfg).introspect_token(meta["introspection_endpoint"], token=cfg["token"])
        return {"status": res.status_code, "body": res.json()}
    if step == "end_session":
        params = [(name, cfg[name]) for name in ("id_token_hint", "post_logout_redirect_uri", "state")]
        return {"url": add_params_to_uri(meta["end_session_endpoint"], params)}
    if step == "logout_token":
        return verify_logout_token(meta, cfg)
    raise SystemExit(f"unknown step {step}")


if __name__ == "__main__":
    json.dump(main(), sys.stdout)
