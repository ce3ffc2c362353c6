export interface User {
  id: number;
  name: string;
  email?: string;
  roles: Role[];
}

export type Role = 'admin' | 'editor' | 'viewer';

export function displayName(user: User): string {
  return `${user.name} <${user.email.toLowerCase()}>`;
}
