/** Placeholder until the screen is built (issue 27). */
export default function InstallationsScreen() {
  return <h1>InstallationsScreen</h1>;
}
