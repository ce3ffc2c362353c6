#!/usr/bin/env python3
# generate.py — writes the redaction corpus: realistic command output holding FAKE secrets
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Every secret here is random from a fixed seed (or a vendor's documented example); none was
# ever issued. Run it from this directory to regenerate the *.txt/*.json/*.yaml files and
# manifest.json; the output is the same on every run.
#
# manifest.json lists, per file: the secrets that must vanish, the harmless strings that must
# survive byte for byte, strings the redacted output must contain, and the expected count of every rule that fires (rules not listed
# must not fire). A file with no secrets must come back unchanged.

import base64
import json
import random

rng = random.Random(20240607)
B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
URLSAFE = B62 + "-_"
UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def rand(alphabet, n, digit=True):
    while True:
        s = "".join(rng.choice(alphabet) for _ in range(n))
        if not digit or any(c.isdigit() for c in s):
            return s


def b64(nbytes):
    return base64.b64encode(bytes(rng.randrange(256) for _ in range(nbytes))).decode()


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def github(prefix="ghp_"):
    return prefix + rand(B62, 36)


def jwt():
    header = b64url(b'{"alg":"HS256","typ":"JWT"}')
    payload = b64url(json.dumps({"sub": rand(B62, 8), "iat": 1717700000,
                                 "scope": "deploy"}).encode())
    return f"{header}.{payload}.{b64url(bytes(rng.randrange(256) for _ in range(32)))}"


def pem_body(nbytes):
    body = b64(nbytes)
    return [body[i:i + 64] for i in range(0, len(body), 64)]


def hexstr(n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def uuid():
    h = hexstr(32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


cases = []


def case(name, text, secrets, survivors, counts):
    with open(name, "w") as f:
        f.write(text)
    for s in secrets:
        assert s in text, (name, s)
    # survivors found in the input must come through unchanged; the others show the shape of
    # the redacted output
    expected = [s for s in survivors if s not in text]
    survivors = [s for s in survivors if s in text]
    for s in expected:
        assert "[REDACTED" in s, (name, s)
    cases.append({"file": name, "secrets": secrets, "survivors": survivors, "expected": expected,
                  "counts": counts})


# --- env dump ------------------------------------------------------------------------------------
gh = github()
aws_id = "AKIA" + rand(UPPER_DIGITS, 16)
aws_secret = rand(B62 + "+/", 40)
db_pass = "Xk9#mP2&vLq;7wZ"
random_env = rand(B62, 32)
sha = hexstr(40)
slack = f"xoxb-{rand('0123456789', 12)}-{rand('0123456789', 13)}-{rand(B62, 24)}"
openai = "sk-proj-" + rand(URLSAFE, 48)
case("env-dump.txt", f"""$ env | sort
CI=true
COLORTERM=truecolor
DB_PASSWORD={db_pass}
GIT_COMMIT={sha}
GITHUB_TOKEN={gh}
HOME=/home/runner
HOSTNAME=web-7d9f8c6b5-x2x4z
JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
LANG=en_US.UTF-8
NODE_VERSION=18.17.1
OPENAI_API_KEY={openai}
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
PWD=/home/runner/work/app/app
REQUEST_ID={uuid()}
SESSION_SIGNING_SEED={random_env}
SHLVL=1
SLACK_BOT_TOKEN={slack}
TERM=xterm-256color
TOKENIZERS_PARALLELISM=false
AWS_ACCESS_KEY_ID={aws_id}
AWS_SECRET_ACCESS_KEY={aws_secret}
AWS_DEFAULT_REGION=eu-central-1
SECRET_NAME=prod/db/credentials
MAX_TOKENS=4096
_=/usr/bin/env
""", [gh, aws_id, aws_secret, db_pass, random_env, slack, openai],
     [sha, "HOSTNAME=web-7d9f8c6b5-x2x4z", "PWD=/home/runner/work/app/app",
      "TOKENIZERS_PARALLELISM=false", "SECRET_NAME=prod/db/credentials", "MAX_TOKENS=4096",
      "JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64", "DB_PASSWORD=[REDACTED]",
      "GITHUB_TOKEN=[REDACTED_GITHUB_TOKEN]", "AWS_ACCESS_KEY_ID=[REDACTED_AWS_KEY]",
      "AWS_SECRET_ACCESS_KEY=[REDACTED]", "LANG=en_US.UTF-8"],
     {"github-token": 1, "secret-assignment": 1, "aws-access-key-id": 1, "aws-secret-key": 1,
      "high-entropy-value": 1, "slack-token": 1, "openai-key": 1})

# --- docker inspect ------------------------------------------------------------------------------
pg_pass = rand(B62, 18)
stripe = "sk_live_" + rand(B62, 24)
image = "sha256:" + hexstr(64)
case("docker-inspect.json", f"""[
    {{
        "Id": "{hexstr(64)}",
        "Created": "2024-06-01T09:12:44.120938Z",
        "Image": "{image}",
        "Name": "/billing-worker",
        "Config": {{
            "Hostname": "{hexstr(12)}",
            "Env": [
                "POSTGRES_PASSWORD={pg_pass}",
                "STRIPE_API_KEY={stripe}",
                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",
                "PYTHON_VERSION=3.11.4",
                "LOG_LEVEL=info"
            ],
            "Cmd": ["python", "-m", "billing.worker"],
            "Labels": {{
                "org.opencontainers.image.revision": "{sha}",
                "org.opencontainers.image.version": "2.14.0"
            }}
        }}
    }}
]
""", [pg_pass, stripe], [image, sha, '"PYTHON_VERSION=3.11.4"', '"POSTGRES_PASSWORD=[REDACTED]"',
                          '"STRIPE_API_KEY=[REDACTED_STRIPE_KEY]"', '"LOG_LEVEL=info"'],
     {"secret-assignment": 1, "stripe-key": 1})

# --- curl -v -------------------------------------------------------------------------------------
bearer = jwt()
basic = base64.b64encode(b"ci-bot:" + rand(B62, 20).encode()).decode()
api_token = rand(B62, 40)
case("curl-verbose.txt", f"""$ curl -v -H "Authorization: Bearer {bearer}" https://api.example.com/v2/deployments
*   Trying 93.184.216.34:443...
* Connected to api.example.com (93.184.216.34) port 443 (#0)
* ALPN: offers h2,http/1.1
* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384
> GET /v2/deployments HTTP/2
> Host: api.example.com
> user-agent: curl/7.88.1
> accept: */*
> authorization: Bearer {bearer}
>
< HTTP/2 401
< content-type: application/json
< www-authenticate: Bearer realm="api", error="invalid_token"
<
{{"error":"invalid_token","message":"The access token expired"}}
$ curl -v -u ci-bot https://registry.example.com/v2/_catalog
> GET /v2/_catalog HTTP/1.1
> Proxy-Authorization: Basic {basic}
> X-Api-Key: {api_token}
< HTTP/1.1 200 OK
""", [bearer, basic, api_token],
     ["Authorization: Bearer [REDACTED_JWT]", "authorization: Bearer [REDACTED_JWT]",
      "Proxy-Authorization: Basic [REDACTED]", 'error="invalid_token"',
      "The access token expired", "X-Api-Key: [REDACTED]"],
     {"jwt": 2, "authorization-header": 1, "secret-assignment": 1})

# --- git remote -v -------------------------------------------------------------------------------
gl = "glpat-" + rand(URLSAFE, 20)
ghs = github("ghs_")
plain_pw = "hunter2" + rand(B62, 6)
case("git-remote.txt", f"""$ git remote -v
origin\thttps://oauth2:{gl}@gitlab.example.com/platform/api.git (fetch)
origin\thttps://oauth2:{gl}@gitlab.example.com/platform/api.git (push)
mirror\thttps://x-access-token:{ghs}@github.com/example/api.git (fetch)
mirror\thttps://x-access-token:{ghs}@github.com/example/api.git (push)
backup\thttps://deploy:{plain_pw}@git.example.org/api.git (fetch)
backup\thttps://deploy:{plain_pw}@git.example.org/api.git (push)
upstream\tgit@github.com:example/api.git (fetch)
upstream\tgit@github.com:example/api.git (push)
$ git log --oneline -3
{sha[:7]} Fix token refresh when the password expires
{hexstr(7)} Bump version to 2.14.0
""", [gl, ghs, plain_pw],
     ["https://oauth2:[REDACTED_GITLAB_TOKEN]@gitlab.example.com/platform/api.git",
      "https://x-access-token:[REDACTED_GITHUB_TOKEN]@github.com",
      "https://deploy:[REDACTED]@git.example.org/api.git", "git@github.com:example/api.git",
      "Fix token refresh when the password expires"],
     {"gitlab-token": 2, "github-token": 2, "url-password": 2})

# --- kubectl get secret -o yaml --------------------------------------------------------------------
k_pass = base64.b64encode(rand(B62, 16).encode()).decode()
k_user = base64.b64encode(b"admin").decode()
tls_key = base64.b64encode(("-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(pem_body(600)) +
                            "\n-----END RSA PRIVATE KEY-----\n").encode()).decode()
tls_crt = base64.b64encode(("-----BEGIN CERTIFICATE-----\n" + "\n".join(pem_body(300)) +
                            "\n-----END CERTIFICATE-----\n").encode()).decode()
case("kubectl-secret.yaml", f"""$ kubectl get secret db-credentials -o yaml
apiVersion: v1
data:
  password: {k_pass}
  username: {k_user}
  tls.crt: {tls_crt}
  tls.key: {tls_key}
kind: Secret
metadata:
  creationTimestamp: "2024-05-30T11:02:13Z"
  name: db-credentials
  namespace: billing
  resourceVersion: "48213"
  uid: {uuid()}
type: Opaque
""", [k_pass, tls_key], [k_user, tls_crt, "name: db-credentials", "password: [REDACTED]",
                         "tls.key: [REDACTED_PRIVATE_KEY]"],
     {"secret-assignment": 1, "private-key-block": 1})

# --- .npmrc ----------------------------------------------------------------------------------------
npm = "npm_" + rand(B62, 36)
npm_auth = base64.b64encode(b"builder:" + rand(B62, 14).encode()).decode()
case("npmrc.txt", f"""$ cat ~/.npmrc
registry=https://registry.npmjs.org/
//registry.npmjs.org/:_authToken={npm}
@example:registry=https://npm.pkg.example.com/
//npm.pkg.example.com/:_auth={npm_auth}
//npm.pkg.example.com/:always-auth=true
save-exact=true
$ npm whoami
builder
""", [npm, npm_auth], ["registry=https://registry.npmjs.org/", "always-auth=true",
                       "_authToken=[REDACTED_NPM_TOKEN]", "_auth=[REDACTED]"],
     {"npm-token": 1, "secret-assignment": 1})

# --- pip.conf / .pypirc ----------------------------------------------------------------------------
pypi = "pypi-AgEIcHlwaS5vcmc" + rand(URLSAFE, 60)
idx_pw = rand(B62, 22)
case("pip-conf.txt", f"""$ cat /etc/pip.conf
[global]
index-url = https://ci:{idx_pw}@pypi.internal.example.com/simple/
trusted-host = pypi.internal.example.com
timeout = 60
$ cat ~/.pypirc
[distutils]
index-servers = pypi

[pypi]
username = __token__
password = {pypi}
""", [pypi, idx_pw], ["https://ci:[REDACTED]@pypi.internal.example.com/simple/",
                      "username = __token__", "password = [REDACTED_PYPI_TOKEN]", "timeout = 60"],
     {"url-password": 1, "pypi-token": 1})

# --- CI log ----------------------------------------------------------------------------------------
google = "AIza" + rand(URLSAFE, 35)
gh_pat = "github_pat_" + rand(B62, 22) + "_" + rand(B62, 59)
slack2 = f"xoxp-{rand('0123456789', 11)}-{rand('0123456789', 12)}-{rand(B62, 32)}"
rk = "rk_test_" + rand(B62, 24)
sha256sum = hexstr(64)
case("ci-log.txt", f"""2024-06-07T10:14:02.1180Z ##[group]Run actions/checkout@v4
2024-06-07T10:14:02.1181Z with:
2024-06-07T10:14:02.1182Z   repository: example/api
2024-06-07T10:14:02.1183Z   token: ***
2024-06-07T10:14:02.1184Z   ref: refs/heads/main
2024-06-07T10:14:03.0012Z Syncing repository: example/api
2024-06-07T10:14:05.2231Z HEAD is now at {sha[:7]} Fix token refresh
2024-06-07T10:14:09.8812Z + ./scripts/deploy.sh --maps-key={google}
2024-06-07T10:14:09.9013Z Using GH_PAT={gh_pat}
2024-06-07T10:14:10.0001Z notify: posting to slack with {slack2}
2024-06-07T10:14:10.2210Z stripe: restricted key {rk} loaded
2024-06-07T10:14:11.4410Z {sha256sum}  dist/api-2.14.0-linux-amd64.tar.gz
2024-06-07T10:14:11.5520Z password: ********
2024-06-07T10:14:11.6630Z The token will be refreshed by the next job; no secret is printed here.
2024-06-07T10:14:12.0001Z Error: invalid token: expected 3 segments, got 2
2024-06-07T10:14:12.1001Z ##[error]Process completed with exit code 1.
""", [google, gh_pat, slack2, rk],
     ["token: ***", sha256sum, "password: ********",
      "The token will be refreshed by the next job; no secret is printed here.",
      "Error: invalid token: expected 3 segments, got 2", "ref: refs/heads/main",
      "--maps-key=[REDACTED_GOOGLE_API_KEY]", "GH_PAT=[REDACTED_GITHUB_TOKEN]"],
     {"google-api-key": 1, "github-token": 1, "slack-token": 1, "stripe-key": 1})

# --- stack trace with connection strings -----------------------------------------------------------
azure_key = b64(64)
mongo_pw = rand(B62, 16)
pg_pw2 = rand(B62, 14) + "!"
case("stack-trace.txt", f"""Traceback (most recent call last):
  File "/srv/app/billing/db.py", line 41, in connect
    engine = create_engine(settings.DATABASE_URL, pool_size=5)
  File "/srv/app/venv/lib/python3.11/site-packages/sqlalchemy/engine/create.py", line 618, in create_engine
    raise exc.ArgumentError(
sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server failed
(Background on this error at: https://sqlalche.me/e/20/e3q8)
[SQL: postgresql://billing:{pg_pw2}@db.internal:5432/billing?sslmode=require]
    password = self.password
    token = get_token(scope="billing")
Exception in thread "main" com.azure.storage.blob.BlobStorageException: Status code 403
  connectionString=DefaultEndpointsProtocol=https;AccountName=examplestore;AccountKey={azure_key};EndpointSuffix=core.windows.net
    at com.azure.storage.blob.BlobClient.upload(BlobClient.java:212)
    at com.example.Uploader.run(Uploader.java:88)
pymongo.errors.ServerSelectionTimeoutError: mongodb+srv://app:{mongo_pw}@cluster0.abcde.mongodb.net/?retryWrites=true
""", [azure_key, mongo_pw, pg_pw2],
     ["password = self.password", 'token = get_token(scope="billing")',
      "AccountName=examplestore;AccountKey=[REDACTED];EndpointSuffix=core.windows.net",
      "mongodb+srv://app:[REDACTED]@cluster0.abcde.mongodb.net",
      'File "/srv/app/billing/db.py", line 41, in connect', "BlobClient.java:212"],
     {"url-password": 2, "azure-storage-key": 1})

# --- GCP service account ---------------------------------------------------------------------------
key_id = hexstr(40)
sa_key = ("-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(pem_body(1200)) +
          "\\n-----END PRIVATE KEY-----\\n")
client_id = rand("0123456789", 21)
case("gcp-service-account.json", f"""{{
  "type": "service_account",
  "project_id": "example-billing-prod",
  "private_key_id": "{key_id}",
  "private_key": "{sa_key}",
  "client_email": "deployer@example-billing-prod.iam.gserviceaccount.com",
  "client_id": "{client_id}",
  "auth_uri": "https://accounts.google.com/o/oauth2/auth",
  "token_uri": "https://oauth2.googleapis.com/token"
}}
""", [key_id, sa_key.split("\\n")[1], sa_key],
     ['"client_email": "deployer@example-billing-prod.iam.gserviceaccount.com"',
      f'"client_id": "{client_id}"', '"token_uri": "https://oauth2.googleapis.com/token"',
      '"private_key_id": "[REDACTED]"', '"private_key": "[REDACTED]"'],
     {"gcp-service-account": 2})

# --- private keys in files -------------------------------------------------------------------------
rsa = pem_body(1190)
ossh = pem_body(400)
enc = pem_body(300)
cut = pem_body(500)
case("private-keys.txt", "$ cat deploy/id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(rsa) +
     "\n-----END RSA PRIVATE KEY-----\n$ cat ~/.ssh/id_ed25519\n"
     "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(ossh) +
     "\n-----END OPENSSH PRIVATE KEY-----\n$ cat legacy.key\n-----BEGIN RSA PRIVATE KEY-----\n"
     "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC," + hexstr(32).upper() + "\n\n" +
     "\n".join(enc) + "\n-----END RSA PRIVATE KEY-----\n$ cat cert.pem\n-----BEGIN CERTIFICATE-----\n"
     "MIIBszCCAVmgAwIBAgIUQ2Vyc3RpZmljYXRlIG5vdCBhIHNlY3JldDAKBggqhkjO\n"
     "-----END CERTIFICATE-----\n$ head -c 700 broken.key\n-----BEGIN PRIVATE KEY-----\n" +
     "\n".join(cut[:8]) + "\n$ echo done\ndone\n",
     [rsa[0], rsa[5], rsa[-1], ossh[0], ossh[-1], enc[0], enc[-1], cut[0], cut[7]],
     ["-----BEGIN RSA PRIVATE KEY-----\n[REDACTED_PRIVATE_KEY]\n-----END RSA PRIVATE KEY-----",
      "-----BEGIN OPENSSH PRIVATE KEY-----\n[REDACTED_PRIVATE_KEY]\n-----END OPENSSH PRIVATE KEY-----",
      "MIIBszCCAVmgAwIBAgIUQ2Vyc3RpZmljYXRlIG5vdCBhIHNlY3JldDAKBggqhkjO",
      "-----BEGIN PRIVATE KEY-----\n[REDACTED_PRIVATE_KEY]\n$ echo done\ndone\n"],
     {"private-key-block": 4})

# --- application config: generic assignments and placeholders --------------------------------------
cs = rand(B62, 32)
jwt_secret = hexstr(64)
smtp = "correct horse battery staple"
case("app-config.yaml", f"""$ cat config/production.yaml
server:
  port: 8443
  tokenizer: whitespace
database:
  host: db.internal
  user: billing
  password: "{rand(B62, 12)}PwD"
  password_file: /run/secrets/db_password
oauth:
  client_id: 0oa1b2c3d4e5f6g7h8i9
  client_secret: {cs}
  token_url: https://auth.example.com/oauth2/token
  token_type: bearer
jwt:
  secret_key: {jwt_secret}
smtp:
  pass: ${{SMTP_PASSWORD}}
  user_password: {smtp}
api:
  api_key: <your-api-key>
  apiKey: YOUR_API_KEY_HERE
  secret: null
  max_tokens: 2048
  credentials: "{{{{ vault_credentials }}}}"
""", [cs, jwt_secret, smtp],
     ["tokenizer: whitespace", "password_file: /run/secrets/db_password",
      "client_id: 0oa1b2c3d4e5f6g7h8i9", "token_url: https://auth.example.com/oauth2/token",
      "token_type: bearer", "pass: ${SMTP_PASSWORD}", "api_key: <your-api-key>",
      "apiKey: YOUR_API_KEY_HERE", "secret: null", "max_tokens: 2048",
      'credentials: "{{ vault_credentials }}"', 'password: "[REDACTED]"',
      "client_secret: [REDACTED]", "secret_key: [REDACTED]", "user_password: [REDACTED]"],
     {"secret-assignment": 4})

# --- clean build output: nothing to redact ---------------------------------------------------------
clean_b64 = base64.b64encode(b"hello from the build system, nothing secret here").decode()
case("clean-build.txt", f"""$ git log -3 --format='%H %s'
{sha} Rotate the token cache; passwords are never logged
{hexstr(40)} Document the secret-free build
{hexstr(40)} Bump version to 2.14.0
$ sha256sum dist/*
{sha256sum}  dist/api-2.14.0-linux-amd64.tar.gz
{hexstr(64)}  dist/api-2.14.0-darwin-arm64.tar.gz
$ ninja -C _build
[1/42] Compiling C object engine/libwinnow-engine.a.p/winnow-tokens.c.o
[42/42] Linking target app/winnow
$ ./app/winnow --version
winnow 0.9.1 (glib 2.74.6, json-glib 1.6.6, pcre2 10.42)
request {uuid()} finished in 12 ms; trace_id={hexstr(32)}
payload (base64): {clean_b64}
Enter password: ********
password: ********
The API token is read from the keyring; set it with `winnow auth login`.
npm notice integrity: sha512-{base64.b64encode(bytes(range(64))).decode()}
Build: token streaming enabled, 3 secrets scanned, 0 found
url: https://example.com/docs?page=2&lang=en
See https://docs.example.com/auth#tokens for details.
Downloaded https://user@example.com/files/archive.tar.gz (no password)
eyJub3QiOiJhIGp3dCJ9 is base64 for a small JSON object
""", [], [sha, sha256sum, clean_b64, "password: ********", "Enter password: ********"],
     {})

with open("manifest.json", "w") as f:
    json.dump({"cases": cases}, f, indent=2)
    f.write("\n")
