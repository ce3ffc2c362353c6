import json


class ConfigError(Exception):
    pass


def read_config(text):
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError("config is not valid JSON") from exc


def port_of(cfg):
    return int(cfg["server"]["port"])


if __name__ == "__main__":
    cfg = read_config('{"server": {"port": "80a"}}')
    try:
        port_of(cfg)
    except ValueError:
        read_config("{bad json")
