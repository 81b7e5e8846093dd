/** Design tokens. Layout constants from the spec (section 9). */
export const theme = {
  colors: {
    primary: '#0b6e4f',
    primaryDark: '#08543c',
    primaryText: '#ffffff',
    accent: '#d52b1e',
    text: '#1a2421',
    muted: '#4d5b57',
    border: '#8a9a95',
    surface: '#ffffff',
    background: '#f3f7f5',
    error: '#b00020',
    errorBg: '#fdecee',
    info: '#0b4f6e',
    infoBg: '#e6f2f8',
    focus: '#1f6feb',
  },
  layout: { formMaxWidth: 470, fieldHeight: 56 },
  breakpoints: { sm: 600, md: 900, lg: 1200, xl: 1536 },
  radius: 12,
  font: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
} as const;

export const media = {
  sm: `@media (min-width: ${theme.breakpoints.sm}px)`,
  md: `@media (min-width: ${theme.breakpoints.md}px)`,
  lg: `@media (min-width: ${theme.breakpoints.lg}px)`,
  xl: `@media (min-width: ${theme.breakpoints.xl}px)`,
};
