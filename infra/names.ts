/** `comment-posted`, `get_thing` → `CommentPosted`, `GetThing`: CloudFormation logical ids from route and queue names. */
export const pascalCase = (s: string): string => s.replace(/(^|[-_\s]+)(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
