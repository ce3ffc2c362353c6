const { parseUser } = require('../src/user');

test('parses a full user', () => {
  const u = parseUser('{"id": 7, "profile": {"name": "Eve", "email": "EVE@X.ORG"}}');
  expect(u).toEqual({ id: 7, name: 'Eve', email: 'eve@x.org' });
});

test('parses a user without email', () => {
  const u = parseUser('{"id": 8, "profile": {"name": "Mallory"}}');
  expect(u.name).toBe('Mallory');
});
