def depth(node):
    return 1 + depth(node.get("child", node))


print(depth({"name": "root"}))
