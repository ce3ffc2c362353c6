import { User, Role, displayName } from './models';

const users: User[] = [
  { id: 1, name: 'Ada', roles: ['admin'] },
  { id: '2', name: 'Bob', roles: ['editor'] },
  { id: 3, name: 'Cy', roles: ['owner'] },
];

export function findUser(id: number): User {
  return users.find((u) => u.id === id);
}

export function hasRole(user: User, role: Role): boolean {
  return user.roles.includes(role);
}

export function promote(user: User): User {
  const unusedLocal = 1;
  return { ...user, roles: [...user.roles, 'admin'], level: 2 };
}

export function label(id: number): string {
  const user = findUser(id);
  return displayName(user).toUpperCase(1);
}
