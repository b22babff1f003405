"""Passwords typed on a command line or written into configuration and code are
redacted; the commands, types, references and code around them are not.

The shapes are the ones public repositories and agent sessions show (a password after
`mysql -p`, `sshpass -p`, `curl -u user:`, piped into `sudo -S`; a compose file's
`POSTGRES_PASSWORD: …`, an `.env`'s `SMTP_PASS=…`, a connection string's `Password=…;`,
a `.netrc` entry, an `auth=('user', '…')` pair); every value here is made up.
docs/redaction.md lists the rules.
"""

from __future__ import annotations

import pytest

from sleepd.redaction import Redactor

FOUND = [
    ("mysql -u root -pS3cr3tPass! mydb", "S3cr3tPass!", "mysql-password-flag"),
    (
        "mysql -uroot -p'hdDBDjFXBG6UICE9' < /tmp/init.sql",
        "hdDBDjFXBG6UICE9",
        "mysql-password-flag",
    ),
    ("docker exec -it mysql-container mysql -uroot -pmysecret", "mysecret", "mysql-password-flag"),
    (
        "gunzip < b.sql.gz | docker exec -i app-mysql mysql -uroot -pMinMax2026! app",
        "MinMax2026!",
        "mysql-password-flag",
    ),
    ("mysqldump -h db -P 3306 -uadmin -pr00tpw app > dump.sql", "r00tpw", "mysql-password-flag"),
    ("MARIADB-DUMP -uroot -pQx81hh app", "Qx81hh", "mysql-password-flag"),
    ("MYSQL_PWD=Hun7er2b mysql -uroot app", "Hun7er2b", None),
    ("redis-cli -h 10.0.0.2 -a myRedisPass123 ping", "myRedisPass123", "redis-cli-password"),
    ("redis-cli --pass Red1sP4ss ping", "Red1sP4ss", "cli-password-option"),
    ("curl -u admin:Adm1nPassw0rd https://x.example.com", "Adm1nPassw0rd", "curl-user-password"),
    ("curl -s --user 'elastic:ch4ngeme2' http://localhost:9200", "ch4ngeme2", "curl-user-password"),
    ("curl -uadmin:Adm1nPw http://x", "Adm1nPw", "curl-user-password"),
    (
        "sshpass -p 'LongRagHaltsLied' ssh -o StrictHostKeyChecking=no me@host",
        "LongRagHaltsLied",
        "sshpass-password",
    ),
    ("sshpass -p raspberry ssh pi@192.168.1.5", "raspberry", "sshpass-password"),
    ("sshpass -ppw7Tq scp a.txt me@host:", "pw7Tq", "sshpass-password"),
    ("echo 'CongShaoYu102@' | sudo -S -p '' docker ps", "CongShaoYu102@", "sudo-password-pipe"),
    ('echo "shrimp" | sudo -S curl -L https://x', "shrimp", "sudo-password-pipe"),
    ("printf 'nicfio\\n' | sudo -S -p 'Password: ' -v", "nicfio", "sudo-password-pipe"),
    (
        "docker login -u bob -p Dh7xQ2pLm registry.example.com",
        "Dh7xQ2pLm",
        "registry-login-password",
    ),
    ("podman login --password Pd9kWm quay.io", "Pd9kWm", "cli-password-option"),
    (
        "mongosh -u admin -p Adm1n2024 --authenticationDatabase admin",
        "Adm1n2024",
        "mongo-password-flag",
    ),
    ("ldapsearch -x -D cn=admin,dc=ex -w Ldap2024pw -b dc=ex", "Ldap2024pw", "ldap-bind-password"),
    (
        "sqlcmd -S localhost -U sa -P 'YourStr0ng!Pw' -Q 'SELECT 1'",
        "YourStr0ng!Pw",
        "sqlcmd-password-flag",
    ),
    ("keytool -genkey -keystore k.jks -storepass Kst0rePw -keypass Kp4ss123", "Kst0rePw", None),
    ("keytool -importkeystore -srcstorepass Src9pw -deststorepass Dst9pw", "Dst9pw", None),
    ("openssl pkcs12 -export -in c.pem -passout pass:Exp0rtPw -out c.p12", "Exp0rtPw", None),
    ("zip -P Z1pPass99 out.zip a.txt", "Z1pPass99", "archive-password-flag"),
    ("smbclient //srv/share -U alice%Sm8Pass", "Sm8Pass", "smb-user-password"),
    ("CREATE USER 'app'@'%' IDENTIFIED BY 'Sq1Passw0rd';", "Sq1Passw0rd", "sql-identified-by"),
    (
        "ALTER USER root@localhost IDENTIFIED WITH mysql_native_password BY 'Nat1ve';",
        "Nat1ve",
        None,
    ),
    ("CREATE ROLE app WITH LOGIN ENCRYPTED PASSWORD 'pgR0lePw';", "pgR0lePw", "sql-identified-by"),
    ("ALTER USER postgres WITH PASSWORD 'postgres';", "postgres';", "sql-identified-by"),
    ("wget --user=bob --password=bobpass http://x/y", "bobpass", "cli-password-option"),
    # inside JSON (a tool call's input), and JSON inside JSON (Codex call arguments on disk)
    ('{"command":"mysql -uroot -p\\"Js0nPw!\\" app"}', "Js0nPw!", "mysql-password-flag"),
    ('"arguments":"{\\"cmd\\":\\"sshpass -p \\\\\\"Tw1ceEsc\\\\\\" ssh h\\"}"', "Tw1ceEsc", None),
    # glued to what precedes the command
    ("执行：sshpass -p Xy7pw ssh h", "Xy7pw", "sshpass-password"),
    ("ProxyCommand=sshpass -p Xy7pw ssh -W %h:%p jump", "Xy7pw", "sshpass-password"),
    ('os.system("sshpass -p Xy7pw ssh h")', "Xy7pw", "sshpass-password"),
    # a line of several commands: each password, and only the password
    (
        "cd /srv && mysql -uroot -pFirst1 -e 'select 1'; sshpass -p Second2 ssh h",
        "Second2",
        "sshpass-password",
    ),
    # configuration and code
    (
        "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: kido_password\n"
        "      POSTGRES_USER: kido\n",
        "kido_password",
        "env-secret-yaml",
    ),
    ("DB_PASSWORD: rootpass", "rootpass", "env-secret-yaml"),
    ("  SMTP_PASS: gm4ilApp  # app password", "gm4ilApp", "env-secret-yaml"),
    ("      REDIS_PWD: 'r3disPw'\n", "r3disPw", None),
    ("DB_PASS=xyz123abc", "xyz123abc", "env-secret-assignment"),
    ("export REDIS_PASS='r3disPw9'", "r3disPw9", "env-secret-assignment"),
    ("MYSQL_PWD=Pw0rd99 mysql -uroot", "Pw0rd99", None),
    (
        "machine api.example.com login me@x.com password 9f8e7d6c5b4a",
        "9f8e7d6c5b4a",
        "netrc-password",
    ),
    ("Server=db;Database=app;User Id=sa;Password=MyPass;", "MyPass", "connection-string-password"),
    (
        "Driver={ODBC Driver 18};Server=db; Uid=sa; Pwd=secretz",
        "secretz",
        "connection-string-password",
    ),
    ("requests.get(url, auth=('admin', 'S3cretPw'))", "S3cretPw", "basic-auth-pair"),
    ('HTTPBasicAuth("user", "pa55word")', "pa55word", "basic-auth-pair"),
    ("gpg --batch --passphrase Gpg5ecret -d f.gpg", "Gpg5ecret", "cli-password-option"),
    ("ssh-keygen -t ed25519 -N 'K3yPhrase' -f key", "K3yPhrase", "ssh-keygen-passphrase"),
]


@pytest.mark.parametrize(("text", "secret", "rule"), FOUND)
def test_a_typed_password_is_redacted(text: str, secret: str, rule: str | None) -> None:
    out, rules = Redactor(salt=b"t").redact(text)
    assert secret not in out, out
    assert rules
    if rule is not None:
        assert rule in rules


def test_only_the_password_is_replaced() -> None:
    out, _ = Redactor(salt=b"t").redact("curl -u admin:Adm1nPassw0rd https://x.example.com")
    assert out.startswith("curl -u admin:[REDACTED:curl-user-password:")
    assert out.endswith("] https://x.example.com")
    out, _ = Redactor(salt=b"t").redact("cd /srv && mysql -uroot -pFirst1 -e 'select 1'")
    assert out.startswith("cd /srv && mysql -uroot -p[REDACTED:mysql-password-flag:")
    assert out.endswith("] -e 'select 1'")


KEPT = [
    # the password is asked for, or read from a variable, a file or a prompt
    'mysql -uroot -p -e "CREATE DATABASE x"',
    "mysql -uroot -p < schema.sql",
    'mysql -uroot -p"${DB_ROOT_PASS}" app < changes.sql',
    "mysql -uroot -p$MYSQL_ROOT_PASSWORD",
    'sshpass -p "$s_pass" scp a b',
    "echo $pw | sudo -S service lightdm start",
    "curl -u $USER:$TOKEN https://api",
    'curl -u "$API_USER:$API_KEY" https://x',
    "docker login --username bob --password-stdin < token.txt",
    "openssl pkcs12 -export -passout env:EXPORT_PW -out c.p12",
    "sshpass -p '{{credential: vpsssh}}' ssh root@10.0.0.5",
    "mongosh -u admin -p --authenticationDatabase admin",
    "ldapsearch -x -D cn=admin,dc=ex -W -b dc=ex",
    # other meanings of the same letters
    "ssh -p 2222 host",
    "docker run -p 8080:80 nginx",
    "git push -u origin main",
    "mysqladmin -P 3306 status",
    "apt install mysql-server -y",
    "unzip -p archive.zip inner.txt",
    "Download the .zip file and run it",
    "sudo -S true",
    "curl http://localhost:8080/api -u",
    "the tests pass: 12 passed",
    "positions--pass the others through",
    # prose about the options
    "use the --password option to set it",
    "the auth can be given via the --username and --password options instead",
    "a dynamic library identified by 'name'",
    # the shell's working directory, and a label in another script (real sessions not in
    # the repository had both stored redacted)
    'docker run -v "$PWD:/workspace" image',
    '"cli.store_password": "是否保存密码",',
    # configuration and code: types, references, numbers, variables
    # types, references, numbers and variables where a value would be
    "SECRET_KEY: Optional[str] = None",
    "DB_PASSWORD: str = ''",
    "PR_EMS_AB_AUTHORIZED_PASSWORD: Incomplete",
    "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    "API_TOKEN: settings.API_TOKEN",
    "MAX_TOKEN: 4096",
    "    ANTHROPIC_API_KEY: anthropicKey,",
    "AUTH_TOKEN: string;",
    "PASSWORD: required",
    "OLDPWD=/home/me/src",
    "SKIP_PASS=1",
    # code, not a connection string
    "a = b; password = x;",
    "showLoginForm = false; password = '';",
    "x = auth(user, pw)",
    "auth=('user', os.environ['PW'])",
    "ssh-keygen -t ed25519 -N '' -f key",
    "DEFAULT_NETRC_FMT = 'machine {hostname} login token password {token}'",
]


@pytest.mark.parametrize("text", KEPT)
def test_commands_and_code_without_a_typed_password_are_kept(text: str) -> None:
    assert Redactor(salt=b"t").redact(text) == (text, [])
