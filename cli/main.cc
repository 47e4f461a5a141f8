// placeholder main until the CLI lands
int main() { return 3; }
