/** The client profiles' names (profiles.ts), apart so that the environment table can list them without a cycle. */
export const PROFILE_NAMES = [
  'full',
  'claude',
  'cursor',
  'gemini',
  'openai',
  'openai-strict',
  'vscode',
  'portable',
] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export function isProfileName(value: string): value is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(value);
}
