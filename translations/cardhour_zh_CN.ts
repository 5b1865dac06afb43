<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AccountPage</name>
    <message>
        <source>Log in</source>
        <translation>登录</translation>
    </message>
    <message>
        <source>Your account</source>
        <translation>您的账户</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>邮箱：</translation>
    </message>
    <message>
        <source>you@example.com</source>
        <translation>you@example.com</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>密码：</translation>
    </message>
    <message>
        <source>Repeat password:</source>
        <translation>确认密码：</translation>
    </message>
    <message>
        <source>Change provider</source>
        <translation>更换服务商</translation>
    </message>
    <message>
        <source>I am new here: create an account</source>
        <translation>我是新用户：创建账户</translation>
    </message>
    <message>
        <source>I have an account</source>
        <translation>我已有账户</translation>
    </message>
</context>
<context>
    <name>ConnectPage</name>
    <message>
        <source>Where are your GPUs?</source>
        <translation>您的 GPU 在哪里？</translation>
    </message>
    <message>
        <source>Connect to a provider</source>
        <translation>连接到服务商</translation>
    </message>
    <message>
        <source>Local sandbox (CardHour Sandbox on this computer; no money involved)</source>
        <translation>本地沙盒（本机上的 CardHour Sandbox，不产生真实费用）</translation>
    </message>
    <message>
        <source>Provider at</source>
        <translation>服务商地址</translation>
    </message>
    <message>
        <source>http://127.0.0.1:8787</source>
        <translation>http://127.0.0.1:8787</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
</context>
<context>
    <name>HostKeyVerifier</name>
    <message>
        <source>Connection refused: %1 presented the host key %2, but the provider says this instance&apos;s host key is %3. Someone may be intercepting the connection, or the address now belongs to another machine. CardHour does not connect to a host whose key does not match.</source>
        <translation>连接已拒绝：%1 出示的主机密钥是 %2，但服务商给出的该实例主机密钥是 %3。可能有人在截获连接，或该地址已属于另一台机器。CardHour 不会连接主机密钥不符的主机。</translation>
    </message>
    <message>
        <source>Connection refused: the provider has not reported a host key for %1, so its identity cannot be checked. Wait until the instance is running and try again.</source>
        <translation>连接已拒绝：服务商尚未报告 %1 的主机密钥，无法核实其身份。请等实例运行后再试。</translation>
    </message>
    <message>
        <source>Connection refused: %1 did not present a host key that could be read.</source>
        <translation>连接已拒绝：%1 未出示可读取的主机密钥。</translation>
    </message>
</context>
<context>
    <name>KeysPage</name>
    <message>
        <source>The keys on this computer. An instance accepts the keys it was launched with; the terminal logs in with the matching one from this list. Passphrases are kept in the system keychain.</source>
        <translation>本机上的密钥。实例只接受启动时指定的密钥；终端会用此列表中与之匹配的密钥登录。密码短语保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>指纹</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>name of a new key</source>
        <translation>新密钥的名称</translation>
    </message>
    <message>
        <source>passphrase (optional)</source>
        <translation>密码短语（可选）</translation>
    </message>
    <message>
        <source>&amp;Generate</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Import from ~/.ssh…</source>
        <translation>从 ~/.ssh 导入(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Upload to provider</source>
        <translation>上传到服务商(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Remove from this computer</source>
        <translation>从本机移除(&amp;R)</translation>
    </message>
</context>
<context>
    <name>LaunchDialog</name>
    <message>
        <source>Launch an instance</source>
        <translation>启动实例</translation>
    </message>
    <message>
        <source>&lt;b&gt;1. GPU&lt;/b&gt;</source>
        <translation>&lt;b&gt;1. GPU&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Cards:</source>
        <translation>卡数：</translation>
    </message>
    <message>
        <source>&lt;b&gt;2. System image&lt;/b&gt;</source>
        <translation>&lt;b&gt;2. 系统镜像&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>optional; the provider picks one</source>
        <translation>可选；留空则由服务商命名</translation>
    </message>
    <message>
        <source>You have no SSH keys yet, so you will not be able to log in to this instance. Generate or import one, then upload it.</source>
        <translation>您还没有 SSH 密钥，因此将无法登录此实例。请生成或导入一个密钥，然后上传。</translation>
    </message>
    <message>
        <source>Manage SSH &amp;keys…</source>
        <translation>管理 SSH 密钥(&amp;K)…</translation>
    </message>
    <message>
        <source>GPU types</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <source>Number of cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <source>System images</source>
        <translation>系统镜像</translation>
    </message>
    <message>
        <source>&lt;b&gt;3. Datasets to mount&lt;/b&gt; (read-only, at /datasets/NAME)</source>
        <translation>&lt;b&gt;3. 要挂载的数据集&lt;/b&gt;（只读，位于 /datasets/NAME）</translation>
    </message>
    <message>
        <source>Datasets to mount</source>
        <translation>要挂载的数据集</translation>
    </message>
    <message>
        <source>The provider offers no datasets.</source>
        <translation>服务商未提供数据集。</translation>
    </message>
    <message>
        <source>&lt;b&gt;4. SSH keys to install&lt;/b&gt;</source>
        <translation>&lt;b&gt;4. 要安装的 SSH 密钥&lt;/b&gt;</translation>
    </message>
    <message>
        <source>SSH keys to install</source>
        <translation>要安装的 SSH 密钥</translation>
    </message>
    <message>
        <source>Cost preview</source>
        <translation>费用预览</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>CardHour</source>
        <translation>CardHour</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Instances</source>
        <translation>实例(&amp;I)</translation>
    </message>
    <message>
        <source>Open in &amp;browser</source>
        <translation>在浏览器中打开(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Billing</source>
        <translation>账单(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Main toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>&amp;Connect to…</source>
        <translation>连接到(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Log &amp;out</source>
        <translation>退出登录(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Launch…</source>
        <translation>启动实例(&amp;L)…</translation>
    </message>
    <message>
        <source>Rent a new GPU host</source>
        <translation>租用新的 GPU 主机</translation>
    </message>
    <message>
        <source>Open &amp;terminal</source>
        <translation>打开终端(&amp;T)</translation>
    </message>
    <message>
        <source>A shell on the selected instance, in a new tab</source>
        <translation>在新标签页中打开所选实例的 shell</translation>
    </message>
    <message>
        <source>S&amp;top…</source>
        <translation>停止(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Start…</source>
        <translation>启动(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Terminate…</source>
        <translation>销毁(&amp;D)…</translation>
    </message>
    <message>
        <source>Open in s&amp;ystem terminal</source>
        <translation>在系统终端中打开(&amp;Y)</translation>
    </message>
    <message>
        <source>Add to ~/.ssh/&amp;config</source>
        <translation>添加到 ~/.ssh/config(&amp;C)</translation>
    </message>
    <message>
        <source>Copy SSH &amp;command</source>
        <translation>复制 SSH 命令(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Upload to /workspace…</source>
        <translation>上传到 /workspace(&amp;U)…</translation>
    </message>
    <message>
        <source>Files go to the instance of the terminal tab shown; dropping files on the tab does the same</source>
        <translation>文件会上传到当前终端标签页所连接的实例；把文件拖放到标签页上效果相同</translation>
    </message>
    <message>
        <source>&amp;Download from the instance…</source>
        <translation>从实例下载(&amp;D)…</translation>
    </message>
    <message>
        <source>SSH &amp;keys…</source>
        <translation>SSH 密钥(&amp;K)…</translation>
    </message>
    <message>
        <source>&amp;Top up…</source>
        <translation>充值(&amp;T)…</translation>
    </message>
    <message>
        <source>Add to the balance (a simulated payment in the sandbox)</source>
        <translation>为余额充值（沙盒中为模拟支付）</translation>
    </message>
    <message>
        <source>GPU &amp;chart</source>
        <translation>GPU 图表(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Home</source>
        <translation>主页(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Snapshots</source>
        <translation>快照(&amp;S)</translation>
    </message>
    <message>
        <source>St&amp;orage</source>
        <translation>存储(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Keys</source>
        <translation>密钥(&amp;K)</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Provider URL:</source>
        <translation>服务商地址：</translation>
    </message>
    <message>
        <source>empty: the local sandbox</source>
        <translation>留空：使用本地沙盒</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>Theme:</source>
        <translation>主题：</translation>
    </message>
    <message>
        <source>Warn when the balance lasts less than:</source>
        <translation>余额可用时间少于此值时提醒：</translation>
    </message>
    <message>
        <source>Warn again below:</source>
        <translation>低于此值时再次提醒：</translation>
    </message>
</context>
<context>
    <name>SftpTransfer</name>
    <message>
        <source>no such file or folder</source>
        <translation>没有这个文件或文件夹</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <source>the server could not do it (is the disk full?)</source>
        <translation>服务器无法完成（磁盘是否已满？）</translation>
    </message>
    <message>
        <source>The instance&apos;s SFTP service did not start: %1</source>
        <translation>实例的 SFTP 服务未能启动：%1</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is %2 bytes after the transfer instead of %3.</source>
        <translation>传输后 %1 为 %2 字节，而不是 %3 字节。</translation>
    </message>
    <message>
        <source>Could not compute the SHA-256 of %1 on the instance.</source>
        <translation>无法在实例上计算 %1 的 SHA-256。</translation>
    </message>
    <message>
        <source>The SHA-256 of %1 differs between this computer and the instance.</source>
        <translation>%1 在本机与实例上的 SHA-256 不一致。</translation>
    </message>
    <message>
        <source>%1 exists on the instance and is not a folder.</source>
        <translation>%1 已存在于实例上，且不是文件夹。</translation>
    </message>
    <message>
        <source>Could not create the folder %1 on the instance: %2</source>
        <translation>无法在实例上创建文件夹 %1：%2</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>Could not write %1 on the instance: %2</source>
        <translation>无法在实例上写入 %1：%2</translation>
    </message>
    <message>
        <source>Could not finish writing %1 on the instance: %2</source>
        <translation>无法在实例上完成写入 %1：%2</translation>
    </message>
    <message>
        <source>Could not rename %1 to %2 on the instance: %3</source>
        <translation>无法在实例上将 %1 重命名为 %2：%3</translation>
    </message>
    <message>
        <source>Could not list %1 on the instance: %2</source>
        <translation>无法列出实例上的 %1：%2</translation>
    </message>
    <message>
        <source>%1 does not exist on the instance.</source>
        <translation>实例上不存在 %1。</translation>
    </message>
    <message>
        <source>Could not create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Could not read %1 on the instance: %2</source>
        <translation>无法读取实例上的 %1：%2</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>The instance&apos;s folder %1 holds a name that cannot be saved safely here: &quot;%2&quot; (%3). Nothing was downloaded.</source>
        <translation>实例上的文件夹 %1 中有一个无法在本机安全保存的名称：“%2”（%3）。未下载任何文件。</translation>
    </message>
    <message>
        <source>%1 cannot be saved under its name here (%2).</source>
        <translation>%1 无法以其原名保存到本机（%2）。</translation>
    </message>
    <message>
        <source>%1 would be written outside %2; nothing was downloaded.</source>
        <translation>%1 会被写到 %2 之外；未下载任何文件。</translation>
    </message>
    <message>
        <source>%1 would be written outside %2; it was not downloaded.</source>
        <translation>%1 会被写到 %2 之外；未下载该文件。</translation>
    </message>
    <message>
        <source>%1 is a symbolic link; it was not followed.</source>
        <translation>%1 是符号链接；未跟随该链接。</translation>
    </message>
    <message>
        <source>%1 already exists and differs from %2 on the instance; it was not replaced. Move it away or download into another folder.</source>
        <translation>%1 已存在，且与实例上的 %2 不同；未覆盖该文件。请将其移走，或下载到其他文件夹。</translation>
    </message>
    <message>
        <source>Could not rename %1 to %2 (does %2 exist now?).</source>
        <translation>无法将 %1 重命名为 %2（%2 现在是否已存在？）。</translation>
    </message>
</context>
<context>
    <name>SnapshotsPage</name>
    <message>
        <source>Snapshots</source>
        <translation>快照</translation>
    </message>
    <message>
        <source>A snapshot is a copy of an instance&apos;s own disk and /workspace. Restore it as a new instance on any GPU type; you pay for its storage while you keep it.</source>
        <translation>快照是实例自身磁盘和 /workspace 的副本。可在任意 GPU 型号上恢复为新实例；保留期间需支付存储费。</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>来源(&amp;F)：</translation>
    </message>
    <message>
        <source>Instance to snapshot</source>
        <translation>要制作快照的实例</translation>
    </message>
    <message>
        <source>no running or stopped instance</source>
        <translation>没有运行中或已停止的实例</translation>
    </message>
    <message>
        <source>N&amp;ame:</source>
        <translation>名称(&amp;A)：</translation>
    </message>
    <message>
        <source>Snapshot name</source>
        <translation>快照名称</translation>
    </message>
    <message>
        <source>instance name + “-snapshot”</source>
        <translation>实例名 + “-snapshot”</translation>
    </message>
    <message>
        <source>&amp;Take snapshot</source>
        <translation>制作快照(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Restore…</source>
        <translation>恢复(&amp;R)…</translation>
    </message>
    <message>
        <source>Restore the selected snapshot as a new instance</source>
        <translation>将所选快照恢复为新实例</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>Delete the selected snapshot; its storage fee stops</source>
        <translation>删除所选快照；其存储费随之停止</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
</context>
<context>
    <name>SnapshotsRestoreDialog</name>
    <message>
        <source>Restore snapshot</source>
        <translation>恢复快照</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>chosen by the provider</source>
        <translation>由服务商指定</translation>
    </message>
    <message>
        <source>&amp;GPU type:</source>
        <translation>GPU 型号(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Cards:</source>
        <translation>卡数(&amp;C)：</translation>
    </message>
    <message>
        <source>SSH &amp;keys:</source>
        <translation>SSH 密钥(&amp;K)：</translation>
    </message>
</context>
<context>
    <name>SshConfigWriter</name>
    <message>
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Could not create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>The provider has not reported the host key of %1, so it cannot be pinned.</source>
        <translation>服务商尚未报告 %1 的主机密钥，因此无法固定。</translation>
    </message>
    <message>
        <source>The host key of %1 (%2) does not match its fingerprint %3; it was not pinned.</source>
        <translation>%1 的主机密钥（%2）与其指纹 %3 不符，未予固定。</translation>
    </message>
</context>
<context>
    <name>SshConnection</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 has no SSH address yet.</source>
        <translation>%1 还没有 SSH 地址。</translation>
    </message>
    <message>
        <source>libssh could not create a session.</source>
        <translation>libssh 无法创建会话。</translation>
    </message>
    <message>
        <source>Could not connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
    <message>
        <source>The private key %1 could not be opened (wrong or missing passphrase?).</source>
        <translation>无法打开私钥 %1（密码短语错误或缺失？）。</translation>
    </message>
    <message>
        <source>The private key %1 is missing.</source>
        <translation>私钥 %1 不存在。</translation>
    </message>
    <message>
        <source>%1 does not accept your key %2 (%3): that key is missing from the host&apos;s authorized keys. Add it to the instance (Keys…) or connect with a key the instance was launched with.</source>
        <translation>%1 不接受你的密钥 %2（%3）：该密钥不在主机的授权密钥中。请把它添加到实例（密钥…），或使用启动实例时所用的密钥连接。</translation>
    </message>
    <message>
        <source>Authentication with %1 failed: %2</source>
        <translation>与 %1 的身份验证失败：%2</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>Could not run a command on %1: %2</source>
        <translation>无法在 %1 上运行命令：%2</translation>
    </message>
    <message>
        <source>Could not send input to the command: %1</source>
        <translation>无法向命令发送输入：%1</translation>
    </message>
    <message>
        <source>The connection to %1 broke while the command ran: %2</source>
        <translation>命令运行期间与 %1 的连接中断：%2</translation>
    </message>
    <message>
        <source>The command on %1 did not finish within %2 s.</source>
        <translation>%1 上的命令未在 %2 秒内完成。</translation>
    </message>
    <message>
        <source>The command on %1 ended without an exit status.</source>
        <translation>%1 上的命令结束时没有退出状态。</translation>
    </message>
</context>
<context>
    <name>SshKeyPair</name>
    <message>
        <source>Could not create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>libssh could not generate an ed25519 key.</source>
        <translation>libssh 无法生成 ed25519 密钥。</translation>
    </message>
    <message>
        <source>libssh could not export the new private key.</source>
        <translation>libssh 无法导出新私钥。</translation>
    </message>
    <message>
        <source>libssh could not export the new public key.</source>
        <translation>libssh 无法导出新公钥。</translation>
    </message>
    <message>
        <source>%1 is not a public key file (its name does not end in .pub).</source>
        <translation>%1 不是公钥文件（文件名不以 .pub 结尾）。</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 does not hold an OpenSSH public key.</source>
        <translation>%1 中没有 OpenSSH 公钥。</translation>
    </message>
    <message>
        <source>The private key %1 that belongs to %2 is missing.</source>
        <translation>与 %2 配对的私钥 %1 不存在。</translation>
    </message>
    <message>
        <source>The private key %1 could not be read; it may need a passphrase.</source>
        <translation>无法读取私钥 %1，它可能需要密码短语。</translation>
    </message>
    <message>
        <source>The private key %1 could not be opened with this passphrase.</source>
        <translation>无法用此密码短语打开私钥 %1。</translation>
    </message>
    <message>
        <source>The private key %1 does not belong to the public key %2.</source>
        <translation>私钥 %1 与公钥 %2 不配对。</translation>
    </message>
</context>
<context>
    <name>StoragePage</name>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Datasets the provider shares: an instance launched with one sees it read-only at its mount path, without copying it.</source>
        <translation>服务商共享的数据集：启动时选择了数据集的实例可在其挂载路径以只读方式访问，无需复制。</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Add a folder as a dataset</source>
        <translation>将文件夹添加为数据集</translation>
    </message>
    <message>
        <source>The local sandbox shares a folder of this computer with the instances launched with it.</source>
        <translation>本地沙盒会将本机的一个文件夹共享给启动时选择了它的实例。</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>文件夹(&amp;F)：</translation>
    </message>
    <message>
        <source>Folder to share</source>
        <translation>要共享的文件夹</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>Dataset name</source>
        <translation>数据集名称</translation>
    </message>
    <message>
        <source>a-z, 0-9, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;</source>
        <translation>a-z、0-9、“.”、“_”和“-”</translation>
    </message>
    <message>
        <source>&amp;Add dataset</source>
        <translation>添加数据集(&amp;A)</translation>
    </message>
    <message>
        <source>Model library</source>
        <translation>模型库</translation>
    </message>
</context>
<context>
    <name>TopUpDialog</name>
    <message>
        <source>Top up the balance</source>
        <translation>余额充值</translation>
    </message>
    <message>
        <source>This is the sandbox: the payment is simulated. No money moves and no card is charged; the provider adds the amount to your balance at once.</source>
        <translation>这是沙盒：支付是模拟的。不会发生真实扣款，也不会向任何银行卡收费；服务商会立即将金额加入您的余额。</translation>
    </message>
    <message>
        <source>Balance now:</source>
        <translation>当前余额：</translation>
    </message>
    <message>
        <source>Amount (yuan):</source>
        <translation>金额（元）：</translation>
    </message>
    <message>
        <source>e.g. 50 or 12.50</source>
        <translation>例如 50 或 12.50</translation>
    </message>
</context>
<context>
    <name>cardhour::core::ApiError</name>
    <message>
        <source>The provider cannot be reached (%1).</source>
        <translation>无法连接到服务商（%1）。</translation>
    </message>
    <message>
        <source>The provider did not answer in time.</source>
        <translation>服务商未能及时响应。</translation>
    </message>
    <message>
        <source>The provider sent an answer this version of CardHour does not understand.</source>
        <translation>服务商返回了此版本 CardHour 无法理解的响应。</translation>
    </message>
    <message>
        <source>The request was cancelled.</source>
        <translation>请求已取消。</translation>
    </message>
    <message>
        <source>Wrong e-mail address or password.</source>
        <translation>邮箱地址或密码错误。</translation>
    </message>
    <message>
        <source>An account with this e-mail address already exists.</source>
        <translation>使用此邮箱地址的账户已存在。</translation>
    </message>
    <message>
        <source>The password must have at least 8 characters.</source>
        <translation>密码至少需要 8 个字符。</translation>
    </message>
    <message>
        <source>This is not a valid e-mail address.</source>
        <translation>这不是有效的邮箱地址。</translation>
    </message>
    <message>
        <source>Too many failed log-ins. Please wait and try again.</source>
        <translation>登录失败次数过多，请稍后再试。</translation>
    </message>
    <message>
        <source>Your session has expired. Please log in again.</source>
        <translation>您的会话已过期，请重新登录。</translation>
    </message>
    <message>
        <source>The balance is too low to run this instance for a minute. Top up first.</source>
        <translation>余额不足以运行此实例一分钟，请先充值。</translation>
    </message>
    <message>
        <source>Not enough GPUs of this type are free right now.</source>
        <translation>此型号的空闲 GPU 目前不足。</translation>
    </message>
    <message>
        <source>The instance cannot do that in its current state.</source>
        <translation>实例在当前状态下无法执行此操作。</translation>
    </message>
    <message>
        <source>It no longer exists.</source>
        <translation>它已不存在。</translation>
    </message>
    <message>
        <source>This SSH key is already on your account.</source>
        <translation>此 SSH 密钥已在您的账户中。</translation>
    </message>
    <message>
        <source>This is not a usable OpenSSH public key.</source>
        <translation>这不是可用的 OpenSSH 公钥。</translation>
    </message>
    <message>
        <source>A balance may not exceed 1,000,000 yuan.</source>
        <translation>余额不能超过 1,000,000 元。</translation>
    </message>
    <message>
        <source>This GPU type is no longer offered.</source>
        <translation>此 GPU 型号已不再提供。</translation>
    </message>
    <message>
        <source>The provider refused the request: %1</source>
        <translation>服务商拒绝了请求：%1</translation>
    </message>
    <message>
        <source>The provider answered with HTTP status %1.</source>
        <translation>服务商返回了 HTTP 状态码 %1。</translation>
    </message>
    <message>
        <source>Your log-in has expired. Please log in again.</source>
        <translation>您的登录已过期，请重新登录。</translation>
    </message>
    <message>
        <source>A spending limit must be zero or more, and an alert no higher than its maximum.</source>
        <translation>消费限额必须大于或等于零，且提醒金额不能高于其上限。</translation>
    </message>
    <message>
        <source>The instance cannot do that now.</source>
        <translation>该实例当前无法执行此操作。</translation>
    </message>
    <message>
        <source>Today&apos;s spending limit of %1 leaves no room for another minute (%2 spent). Raise the limit or wait for tomorrow.</source>
        <translation>今日消费限额 %1 已不足以再运行一分钟（已消费 %2）。请提高限额或等到明天。</translation>
    </message>
    <message>
        <source>This month&apos;s spending limit of %1 leaves no room for another minute (%2 spent). Raise the limit or wait for next month.</source>
        <translation>本月消费限额 %1 已不足以再运行一分钟（已消费 %2）。请提高限额或等到下个月。</translation>
    </message>
    <message>
        <source>The total spending limit of %1 leaves no room for another minute (%2 spent). Raise the limit to go on.</source>
        <translation>总消费限额 %1 已不足以再运行一分钟（已消费 %2）。请提高限额后继续。</translation>
    </message>
    <message>
        <source>The provider&apos;s disk is nearly full: it takes on no new instances, snapshots or uploads until space is freed. Running instances carry on.</source>
        <translation>服务商的磁盘快满了：在腾出空间之前，不再接受新的实例、快照或上传。正在运行的实例不受影响。</translation>
    </message>
    <message>
        <source>This name is taken by a public model or by one of your models or unfinished uploads. Choose another name.</source>
        <translation>此名称已被公共模型、您的某个模型或未完成的上传占用。请另选一个名称。</translation>
    </message>
    <message>
        <source>The provider has no model by this name.</source>
        <translation>服务商没有此名称的模型。</translation>
    </message>
    <message>
        <source>The provider no longer has this upload. Upload the file again.</source>
        <translation>服务商已不再保留此上传。请重新上传该文件。</translation>
    </message>
    <message>
        <source>The file the provider received does not match the SHA-256 measured on this computer (the file changed while it was sent). The provider discarded it: upload it again.</source>
        <translation>服务商收到的文件与本机计算的 SHA-256 不符（文件在发送过程中被改动）。服务商已将其丢弃：请重新上传。</translation>
    </message>
    <message>
        <source>Part of the file was damaged on the way, again and again. What arrived intact is kept: try again later to carry on.</source>
        <translation>文件的一部分在传输中反复损坏。已完好送达的部分会保留：请稍后重试以继续。</translation>
    </message>
    <message>
        <source>This file (%1) does not fit: your models and unfinished uploads already take %2 of the %3 an account may keep. Delete a model or an unfinished upload first.</source>
        <translation>此文件（%1）放不下：您的模型和未完成的上传已占用每个账户上限 %3 中的 %2。请先删除一个模型或未完成的上传。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::AppOpener</name>
    <message>
        <source>Open the app</source>
        <translation>打开应用</translation>
    </message>
    <message>
        <source>Could not make the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>The folder %1 is not this user&apos;s alone.</source>
        <translation>文件夹 %1 并非仅属于当前用户。</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Could not start a browser.</source>
        <translation>无法启动浏览器。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::ChaosFault</name>
    <message>
        <source>Rehearsal: your next launch will fail (%1).</source>
        <translation>演练：您的下一次启动将失败（%1）。</translation>
    </message>
    <message>
        <source>Rehearsal: the launch of %1 failed on purpose (%2).</source>
        <translation>演练：%1 的启动按计划失败（%2）。</translation>
    </message>
    <message>
        <source>Rehearsal: the provider holds every answer %1 ms until %2.</source>
        <translation>演练：服务商将每个应答延迟 %1 毫秒，直到 %2。</translation>
    </message>
    <message>
        <source>Rehearsal over: the provider answers at its own pace again.</source>
        <translation>演练结束：服务商已恢复正常的应答速度。</translation>
    </message>
    <message>
        <source>Rehearsal: cutting the SSH connections of %1…</source>
        <translation>演练：正在切断 %1 的 SSH 连接…</translation>
    </message>
    <message>
        <source>Rehearsal: the SSH connections of %1 were cut (%2).</source>
        <translation>演练：%1 的 SSH 连接已被切断（%2）。</translation>
    </message>
    <message>
        <source>Rehearsal: filling /workspace of %1…</source>
        <translation>演练：正在填满 %1 的 /workspace…</translation>
    </message>
    <message>
        <source>Rehearsal: /workspace of %1 is full (%2).</source>
        <translation>演练：%1 的 /workspace 已满（%2）。</translation>
    </message>
    <message>
        <source>Rehearsal: freeing /workspace of %1…</source>
        <translation>演练：正在释放 %1 的 /workspace…</translation>
    </message>
    <message>
        <source>Rehearsal over: /workspace of %1 was freed (%2).</source>
        <translation>演练结束：%1 的 /workspace 已释放（%2）。</translation>
    </message>
    <message>
        <source>Rehearsal on %1 could not be done: %2</source>
        <translation>无法在 %1 上进行演练：%2</translation>
    </message>
    <message>
        <source>Rehearsal cleared before it took effect.</source>
        <translation>演练在生效前已被清除。</translation>
    </message>
    <message>
        <source>Rehearsal %1 is %2.</source>
        <translation>演练 %1 的状态：%2。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::ClientSession</name>
    <message>
        <source>Your session has ended. Please log in again.</source>
        <translation>您的会话已结束，请重新登录。</translation>
    </message>
    <message>
        <source>You stay logged in for this session only: %1</source>
        <translation>仅在本次会话中保持登录：%1</translation>
    </message>
    <message>
        <source>Starting CardHour Sandbox…</source>
        <translation>正在启动 CardHour Sandbox…</translation>
    </message>
    <message>
        <source>Asking %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Your session has expired. Please log in again.</source>
        <translation>您的会话已过期，请重新登录。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::EventStream</name>
    <message>
        <source>The event stream went silent.</source>
        <translation>事件流没有响应。</translation>
    </message>
    <message>
        <source>The event stream was closed.</source>
        <translation>事件流已关闭。</translation>
    </message>
    <message>
        <source>The provider refused the event stream (HTTP %1 %2).</source>
        <translation>服务商拒绝了事件流（HTTP %1 %2）。</translation>
    </message>
    <message>
        <source>The provider closed the event stream.</source>
        <translation>服务商关闭了事件流。</translation>
    </message>
    <message>
        <source>The provider sent an event stream line longer than %1 MiB; the stream was dropped.</source>
        <translation>服务商发送的事件流中有超过 %1 MiB 的行；已断开该事件流。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::ModelUploader</name>
    <message>
        <source>“%1” is not a model name: use 1 to 64 of a-z, 0-9, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, starting with a letter or a digit.</source>
        <translation>“%1”不是有效的模型名称：请使用 1 到 64 个 a-z、0-9、“.”、“_”和“-”字符，并以字母或数字开头。</translation>
    </message>
    <message>
        <source>“%1” is not a file.</source>
        <translation>“%1”不是文件。</translation>
    </message>
    <message>
        <source>“%1” is empty: a model file has at least one byte.</source>
        <translation>“%1”是空文件：模型文件至少要有一个字节。</translation>
    </message>
    <message>
        <source>“%1” could not be read: %2</source>
        <translation>无法读取“%1”：%2</translation>
    </message>
    <message>
        <source>An unfinished upload named “%1” holds another file (%2, not this file&apos;s %3). Choose that file to carry it on, or discard it first.</source>
        <translation>名为“%1”的未完成上传对应另一个文件（%2，而此文件为 %3）。请选择那个文件以继续上传，或先将其丢弃。</translation>
    </message>
    <message>
        <source>it is shorter than when it was measured</source>
        <translation>它比计算校验和时更短</translation>
    </message>
</context>
<context>
    <name>cardhour::core::ProviderClient</name>
    <message>
        <source>CardHour does not use plain http:// with %1, which is not on this computer: your password and token would cross the network unencrypted, readable by anyone on the way. Use the provider&apos;s https:// address.</source>
        <translation>%1 不在本机上，CardHour 不会通过明文 http:// 与其通信：您的密码和令牌将以未加密形式在网络上传输，途经的任何人都能读取。请使用服务商的 https:// 地址。</translation>
    </message>
    <message>
        <source>%1 is not an http:// or https:// address.</source>
        <translation>%1 不是 http:// 或 https:// 地址。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::ProviderUrl</name>
    <message>
        <source>for example https://gpu.example.com or http://127.0.0.1:8787</source>
        <translation>例如 https://gpu.example.com 或 http://127.0.0.1:8787</translation>
    </message>
    <message>
        <source>Enter the provider&apos;s address, %1.</source>
        <translation>请输入服务商的地址，%1。</translation>
    </message>
    <message>
        <source>“%1” has a space in it: an address has none (%2).</source>
        <translation>“%1”中有空格：地址中不能有空格（%2）。</translation>
    </message>
    <message>
        <source>“%1:” is not a provider&apos;s scheme: the address starts with http:// or https:// (%2).</source>
        <translation>“%1:”不是服务商地址的协议：地址应以 http:// 或 https:// 开头（%2）。</translation>
    </message>
    <message>
        <source>“%1” needs two slashes after “%2:” (%3).</source>
        <translation>“%1”在“%2:”之后需要两个斜杠（%3）。</translation>
    </message>
    <message>
        <source>“%1” has a broken scheme: the address starts with http:// or https:// (%2).</source>
        <translation>“%1”的协议部分有误：地址应以 http:// 或 https:// 开头（%2）。</translation>
    </message>
    <message>
        <source>“%1” is not a port: a port is a number from 1 to 65535 (%2).</source>
        <translation>“%1”不是端口：端口是 1 到 65535 之间的数字（%2）。</translation>
    </message>
    <message>
        <source>“%1” is not an address with a host name (%2).</source>
        <translation>“%1”不是带主机名的地址（%2）。</translation>
    </message>
    <message>
        <source>“%1” has a user name in it: CardHour asks for the account after connecting (%2).</source>
        <translation>“%1”中含有用户名：CardHour 会在连接后询问账户（%2）。</translation>
    </message>
    <message>
        <source>“%1” has a query or fragment (after ? or #): a provider&apos;s address has none (%2).</source>
        <translation>“%1”含有查询或片段（? 或 # 之后的部分）：服务商地址中没有这些（%2）。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SandboxDatasets</name>
    <message>
        <source>A folder is being added already; wait until it is done.</source>
        <translation>已有一个文件夹正在添加；请等待其完成。</translation>
    </message>
    <message>
        <source>The sandbox program stopped before it had added the folder.</source>
        <translation>沙盒程序在添加文件夹之前就停止了。</translation>
    </message>
    <message>
        <source>The sandbox did not add the folder: %1</source>
        <translation>沙盒未能添加该文件夹：%1</translation>
    </message>
    <message>
        <source>exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <source>The sandbox program %1 could not be started: %2</source>
        <translation>无法启动沙盒程序 %1：%2</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SandboxImages</name>
    <message>
        <source>The sandbox program %1 could not be started: %2</source>
        <translation>无法启动沙盒程序 %1：%2</translation>
    </message>
    <message>
        <source>The sandbox could not list its images: %1</source>
        <translation>沙盒无法列出其镜像：%1</translation>
    </message>
    <message>
        <source>exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <source>The images are being prepared already.</source>
        <translation>镜像已在准备中。</translation>
    </message>
    <message>
        <source>Every image is built already.</source>
        <translation>所有镜像都已构建。</translation>
    </message>
    <message>
        <source>Preparing the images was cancelled.</source>
        <translation>镜像准备已取消。</translation>
    </message>
    <message>
        <source>The images are ready.</source>
        <translation>镜像已就绪。</translation>
    </message>
    <message>
        <source>the builder stopped unexpectedly</source>
        <translation>构建程序意外停止</translation>
    </message>
    <message>
        <source>The images could not be built: %1</source>
        <translation>无法构建镜像：%1</translation>
    </message>
    <message>
        <source>The sandbox could not check this computer: %1</source>
        <translation>沙盒无法检查这台计算机：%1</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SandboxLauncher</name>
    <message numerus="yes">
        <source>The sandbox did not become ready within %n second(s).</source>
        <translation>
            <numerusform>沙盒未在 %n 秒内就绪。</numerusform>
        </translation>
    </message>
    <message>
        <source>Looking for a running sandbox…</source>
        <translation>正在查找运行中的沙盒…</translation>
    </message>
    <message>
        <source>Another CardHour Sandbox is using %1 but does not answer. Stop it, or choose another data directory.</source>
        <translation>另一个 CardHour Sandbox 正在使用 %1 但没有响应。请停止它，或选择其他数据目录。</translation>
    </message>
    <message>
        <source>The sandbox program was not found at %1.</source>
        <translation>在 %1 找不到沙盒程序。</translation>
    </message>
    <message>
        <source>The sandbox&apos;s data directory %1 cannot be created.</source>
        <translation>无法创建沙盒的数据目录 %1。</translation>
    </message>
    <message>
        <source>Starting the sandbox…</source>
        <translation>正在启动沙盒…</translation>
    </message>
    <message>
        <source>The sandbox printed something unexpected instead of its address.</source>
        <translation>沙盒输出了意外的内容，而不是它的地址。</translation>
    </message>
    <message>
        <source>The sandbox printed something unexpected instead of its address: %1</source>
        <translation>沙盒输出了意外的内容，而不是它的地址：%1</translation>
    </message>
    <message>
        <source>Waiting for the sandbox to answer…</source>
        <translation>正在等待沙盒响应…</translation>
    </message>
    <message>
        <source>The sandbox started but does not answer at %1: %2</source>
        <translation>沙盒已启动，但在 %1 没有响应：%2</translation>
    </message>
    <message>
        <source>it crashed or was killed</source>
        <translation>它崩溃了或被终止</translation>
    </message>
    <message>
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <source>The sandbox stopped while starting (%1).</source>
        <translation>沙盒在启动过程中停止了（%1）。</translation>
    </message>
    <message>
        <source>The sandbox stopped unexpectedly (%1).</source>
        <translation>沙盒意外停止（%1）。</translation>
    </message>
    <message>
        <source>The sandbox program could not be started: %1</source>
        <translation>无法启动沙盒程序：%1</translation>
    </message>
    <message>
        <source>Stopping the sandbox…</source>
        <translation>正在停止沙盒…</translation>
    </message>
    <message>
        <source>Refused the program at %1: it answers like CardHour Sandbox but cannot prove that it is the one using %2 (%3). It may be another user&apos;s program waiting for your password; nothing was sent to it.</source>
        <translation>已拒绝 %1 上的程序：它的响应像 CardHour Sandbox，但无法证明自己就是使用 %2 的那个沙盒（%3）。它可能是其他用户等待窃取您密码的程序；未向其发送任何内容。</translation>
    </message>
    <message>
        <source>its secret file cannot be used: %1</source>
        <translation>其密钥文件不可用：%1</translation>
    </message>
    <message>
        <source>it did not answer the challenge: %1</source>
        <translation>它未应答质询：%1</translation>
    </message>
    <message>
        <source>its answer to the challenge is wrong</source>
        <translation>它对质询的应答不正确</translation>
    </message>
    <message>
        <source>The sandbox started but what answers at %1 cannot prove it is the sandbox: %2</source>
        <translation>沙盒已启动，但在 %1 上响应的程序无法证明自己就是该沙盒：%2</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SecretStore</name>
    <message>
        <source>The system keychain did not answer.</source>
        <translation>系统钥匙串没有响应。</translation>
    </message>
    <message>
        <source>Access to the system keychain was denied (%1).</source>
        <translation>访问系统钥匙串被拒绝（%1）。</translation>
    </message>
    <message>
        <source>No system keychain is available (%1).</source>
        <translation>没有可用的系统钥匙串（%1）。</translation>
    </message>
    <message>
        <source>The system keychain failed (%1).</source>
        <translation>系统钥匙串出错（%1）。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SftpTransfer</name>
    <message numerus="yes">
        <source>%n file(s) transferred and verified.</source>
        <translation>
            <numerusform>已传输并校验 %n 个文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>The transfer was cancelled; it resumes where it stopped.</source>
        <translation>传输已取消；再次传输时将从中断处继续。</translation>
    </message>
    <message>
        <source>it is not a file name</source>
        <translation>它不是文件名</translation>
    </message>
    <message>
        <source>it holds a path separator</source>
        <translation>其中含有路径分隔符</translation>
    </message>
    <message>
        <source>it holds a colon, which names a drive or a stream on Windows</source>
        <translation>其中含有冒号，在 Windows 上表示驱动器或数据流</translation>
    </message>
    <message>
        <source>it holds a control character</source>
        <translation>其中含有控制字符</translation>
    </message>
    <message>
        <source>Windows reserves it for a device</source>
        <translation>Windows 将其保留给设备</translation>
    </message>
    <message>
        <source>Windows does not allow it</source>
        <translation>Windows 不允许此名称</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SshAccess</name>
    <message>
        <source>“%1” has no SSH address yet.</source>
        <translation>“%1”还没有 SSH 地址。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SshAgent</name>
    <message>
        <source>CardHour cannot add keys to an ssh-agent on this system.</source>
        <translation>CardHour 无法在此系统上把密钥加入 ssh-agent。</translation>
    </message>
    <message>
        <source>No ssh-agent runs for this session (SSH_AUTH_SOCK names none).</source>
        <translation>此会话中没有运行 ssh-agent（SSH_AUTH_SOCK 未指向任何代理）。</translation>
    </message>
    <message>
        <source>Could not make a private folder for ssh-add.</source>
        <translation>无法为 ssh-add 创建私有文件夹。</translation>
    </message>
    <message>
        <source>Could not write the askpass helper for ssh-add.</source>
        <translation>无法为 ssh-add 写入 askpass 辅助程序。</translation>
    </message>
    <message>
        <source>ssh-add could not be started: is OpenSSH installed?</source>
        <translation>无法启动 ssh-add：是否已安装 OpenSSH？</translation>
    </message>
    <message>
        <source>ssh-add did not finish.</source>
        <translation>ssh-add 未能完成。</translation>
    </message>
    <message>
        <source>The ssh-agent could not be reached: %1</source>
        <translation>无法连接 ssh-agent：%1</translation>
    </message>
    <message>
        <source>ssh-add refused the key: %1</source>
        <translation>ssh-add 拒绝了该密钥：%1</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SshKeyChoice</name>
    <message>
        <source>“%1” was launched without an SSH key, so no key can log in to it. Launch an instance with one of your keys.</source>
        <translation>“%1”启动时未指定 SSH 密钥，因此任何密钥都无法登录。请用您的某个密钥启动实例。</translation>
    </message>
    <message>
        <source>key %1 (no longer in your account)</source>
        <translation>密钥 %1（已不在您的账户中）</translation>
    </message>
    <message>
        <source>“%1” (%2)</source>
        <translation>“%1”（%2）</translation>
    </message>
    <message>
        <source>The private key for %1 is missing from this computer, and “%2” accepts no other key. Import it under SSH keys, or launch with a key from this computer.</source>
        <translation>本机上缺少 %1 的私钥，而“%2”不接受其他密钥。请在“SSH 密钥”中导入它，或用本机上的密钥启动实例。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SshKeyStore</name>
    <message>
        <source>Could not create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Could not make the folder %1 private.</source>
        <translation>无法将文件夹 %1 设为仅本人可访问。</translation>
    </message>
    <message>
        <source>Could not save the list of keys in %1: %2</source>
        <translation>无法在 %1 中保存密钥列表：%2</translation>
    </message>
    <message>
        <source>There is no keychain to hold the passphrase.</source>
        <translation>没有可保存密码短语的钥匙串。</translation>
    </message>
    <message>
        <source>The passphrase could not be saved in the keychain, so the key was not added: %1</source>
        <translation>密码短语无法保存到钥匙串，因此未添加该密钥：%1</translation>
    </message>
    <message>
        <source>access was refused</source>
        <translation>访问被拒绝</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SshPortForward</name>
    <message>
        <source>Could not listen on 127.0.0.1:%1: %2</source>
        <translation>无法在 127.0.0.1:%1 上监听：%2</translation>
    </message>
    <message>
        <source>The SSH connection to %1 was lost.</source>
        <translation>与 %1 的 SSH 连接已断开。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SshShell</name>
    <message>
        <source>The shell on %1 could not be started: %2</source>
        <translation>无法启动 %1 上的 shell：%2</translation>
    </message>
    <message>
        <source>The connection to %1 was lost: %2</source>
        <translation>与 %1 的连接已断开：%2</translation>
    </message>
    <message>
        <source>The shell on %1 ended (exit status %2).</source>
        <translation>%1 上的 shell 已结束（退出状态 %2）。</translation>
    </message>
    <message>
        <source>The shell on %1 ended.</source>
        <translation>%1 上的 shell 已结束。</translation>
    </message>
    <message>
        <source>The terminal was closed.</source>
        <translation>终端已关闭。</translation>
    </message>
</context>
<context>
    <name>cardhour::core::SshTarget</name>
    <message>
        <source>the provider gave no SSH address</source>
        <translation>服务商未提供 SSH 地址</translation>
    </message>
    <message>
        <source>the provider&apos;s SSH address is longer than 253 characters</source>
        <translation>服务商提供的 SSH 地址超过 253 个字符</translation>
    </message>
    <message>
        <source>the provider&apos;s SSH address “%1” is neither a host name nor an IP address</source>
        <translation>服务商提供的 SSH 地址“%1”既不是主机名也不是 IP 地址</translation>
    </message>
    <message>
        <source>the provider gave no SSH user</source>
        <translation>服务商未提供 SSH 用户</translation>
    </message>
    <message>
        <source>the provider&apos;s SSH user “%1” is not a valid user name</source>
        <translation>服务商提供的 SSH 用户“%1”不是有效的用户名</translation>
    </message>
    <message>
        <source>“%1” cannot be reached over SSH: %2</source>
        <translation>无法通过 SSH 连接“%1”：%2</translation>
    </message>
</context>
<context>
    <name>cardhour::core::TlsTrust</name>
    <message>
        <source>Cannot read the CA certificate file %1: %2</source>
        <translation>无法读取 CA 证书文件 %1：%2</translation>
    </message>
    <message>
        <source>%1 is too large to be a CA certificate file.</source>
        <translation>%1 太大，不是 CA 证书文件。</translation>
    </message>
    <message>
        <source>%1 holds no PEM certificate (-----BEGIN CERTIFICATE-----).</source>
        <translation>%1 中没有 PEM 证书（-----BEGIN CERTIFICATE-----）。</translation>
    </message>
    <message>
        <source>CardHour refused the certificate of %1 (%2), so nothing was sent to it: not the password, not the token.</source>
        <translation>CardHour 拒绝了 %1 的证书（%2），因此没有向它发送任何内容：既没有密码，也没有令牌。</translation>
    </message>
    <message>
        <source>If this provider uses its own certificate authority, give its CA certificate with --ca FILE.</source>
        <translation>如果该提供商使用自己的证书颁发机构，请用 --ca FILE 指定其 CA 证书。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Access</name>
    <message>
        <source>NAME is missing.</source>
        <translation>缺少 NAME。</translation>
    </message>
    <message>
        <source>cardhourctl ssh: %1</source>
        <translation>cardhourctl ssh：%1</translation>
    </message>
    <message>
        <source>cardhourctl ssh: could not run %1: %2</source>
        <translation>cardhourctl ssh：无法运行 %1：%2</translation>
    </message>
    <message>
        <source>cardhourctl ssh: not supported on this system yet; run: %1</source>
        <translation>cardhourctl ssh：此系统暂不支持；请运行：%1</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <source>forward takes NAME REMOTE_PORT [LOCAL_PORT].</source>
        <translation>forward 需要 NAME REMOTE_PORT [LOCAL_PORT]。</translation>
    </message>
    <message>
        <source>%1 is not a port.</source>
        <translation>%1 不是端口。</translation>
    </message>
    <message>
        <source>Forwarding 127.0.0.1:%1 to port %2 of %3; Ctrl-C ends it.</source>
        <translation>正在把 127.0.0.1:%1 转发到 %3 的端口 %2；按 Ctrl-C 结束。</translation>
    </message>
    <message>
        <source>cardhourctl forward: %1</source>
        <translation>cardhourctl forward：%1</translation>
    </message>
    <message>
        <source>keys list takes no arguments.</source>
        <translation>keys list 不接受参数。</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>(not on this computer)</source>
        <translation>（不在这台电脑上）</translation>
    </message>
    <message>
        <source>FINGERPRINT</source>
        <translation>指纹</translation>
    </message>
    <message>
        <source>PRIVATE KEY</source>
        <translation>私钥</translation>
    </message>
    <message>
        <source>ON THE PROVIDER AS</source>
        <translation>在服务商处的名称</translation>
    </message>
    <message>
        <source>keys generate takes one NAME.</source>
        <translation>keys generate 需要一个 NAME。</translation>
    </message>
    <message>
        <source>cardhourctl keys generate: %1</source>
        <translation>cardhourctl keys generate：%1</translation>
    </message>
    <message>
        <source>Generated %1 (%2).</source>
        <translation>已生成 %1（%2）。</translation>
    </message>
    <message>
        <source>keys upload takes one key: a name of `keys list` or the path of a public key file (.pub).</source>
        <translation>keys upload 需要一个密钥：`keys list` 中的名称，或公钥文件（.pub）的路径。</translation>
    </message>
    <message>
        <source>%1: no such file (the path of a public key file, .pub, or a name of `cardhourctl keys list` is expected).</source>
        <translation>%1：没有这个文件（需要公钥文件 .pub 的路径，或 `cardhourctl keys list` 中的名称）。</translation>
    </message>
    <message>
        <source>%1 is neither a key of `cardhourctl keys list` nor a file.</source>
        <translation>%1 既不是 `cardhourctl keys list` 中的密钥，也不是文件。</translation>
    </message>
    <message>
        <source>could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a public key file (an OpenSSH public key line, as in a .pub file, is expected).</source>
        <translation>%1 不是公钥文件（需要 OpenSSH 公钥行，即 .pub 文件中的内容）。</translation>
    </message>
    <message>
        <source>keys import takes the path of one public key file (.pub).</source>
        <translation>keys import 需要一个公钥文件（.pub）的路径。</translation>
    </message>
    <message>
        <source>%1 is not a file.</source>
        <translation>%1 不是文件。</translation>
    </message>
    <message>
        <source>keys rm takes one NAME, id or fingerprint.</source>
        <translation>keys rm 需要一个 NAME、id 或指纹。</translation>
    </message>
    <message>
        <source>Removed %1 (%2) from the provider.</source>
        <translation>已从服务商处删除 %1（%2）。</translation>
    </message>
    <message>
        <source>cardhourctl keys rm: no key %1 on the provider.</source>
        <translation>cardhourctl keys rm：服务商处没有密钥 %1。</translation>
    </message>
    <message>
        <source>list, generate, upload, import or rm?</source>
        <translation>list、generate、upload、import 还是 rm？</translation>
    </message>
    <message>
        <source>no keys command %1.</source>
        <translation>没有 keys 子命令 %1。</translation>
    </message>
    <message>
        <source>cardhourctl %1: %2</source>
        <translation>cardhourctl %1：%2</translation>
    </message>
    <message>
        <source>OpenSSH to a host, its host key pinned (the remote command&apos;s exit status).</source>
        <translation>用 OpenSSH 连接主机，主机密钥已固定（返回远程命令的退出状态）。</translation>
    </message>
    <message>
        <source>The ~/.ssh/config block of a host, as the desktop writes it.</source>
        <translation>主机的 ~/.ssh/config 配置块，与桌面客户端写入的相同。</translation>
    </message>
    <message>
        <source>Forward a local port to a port of a host over SSH (until interrupted).</source>
        <translation>通过 SSH 把本地端口转发到主机的端口（直到被中断）。</translation>
    </message>
    <message>
        <source>SSH keys: list; generate NAME; upload NAME|PATH.pub; import PATH.pub; rm NAME.</source>
        <translation>SSH 密钥：list；generate NAME；upload NAME|PATH.pub；import PATH.pub；rm NAME。</translation>
    </message>
    <message>
        <source>upload: the name on the provider.</source>
        <translation>upload：在服务商处使用的名称。</translation>
    </message>
    <message>
        <source>generate: keep it on this computer.</source>
        <translation>generate：只保存在这台电脑上。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Account</name>
    <message>
        <source>login takes no arguments; the e-mail goes in --email.</source>
        <translation>login 不接受参数；电子邮件地址请用 --email 给出。</translation>
    </message>
    <message>
        <source>E-mail: </source>
        <translation>电子邮件：</translation>
    </message>
    <message>
        <source>Password: </source>
        <translation>密码：</translation>
    </message>
    <message>
        <source>--email is needed when stdin is not a terminal (the password is read from stdin).</source>
        <translation>stdin 不是终端时需要 --email（密码从 stdin 读取）。</translation>
    </message>
    <message>
        <source>an e-mail address and a password are needed.</source>
        <translation>需要电子邮件地址和密码。</translation>
    </message>
    <message>
        <source>Logged in to %1 as %2.</source>
        <translation>已登录 %1，账号 %2。</translation>
    </message>
    <message>
        <source>logout takes no arguments.</source>
        <translation>logout 不接受参数。</translation>
    </message>
    <message>
        <source>Not logged in.</source>
        <translation>未登录。</translation>
    </message>
    <message>
        <source>Logged out %1.</source>
        <translation>已退出 %1。</translation>
    </message>
    <message>
        <source>whoami takes no arguments.</source>
        <translation>whoami 不接受参数。</translation>
    </message>
    <message>
        <source>provider:</source>
        <translation>服务商：</translation>
    </message>
    <message>
        <source>user id:</source>
        <translation>用户 id：</translation>
    </message>
    <message>
        <source>balance:</source>
        <translation>余额：</translation>
    </message>
    <message>
        <source>spending:</source>
        <translation>花费：</translation>
    </message>
    <message>
        <source>%1/h</source>
        <translation>%1/小时</translation>
    </message>
    <message>
        <source>Log in (the password from a prompt, or from stdin when it is no terminal).</source>
        <translation>登录（密码来自提示输入，stdin 不是终端时来自 stdin）。</translation>
    </message>
    <message>
        <source>The account&apos;s e-mail address.</source>
        <translation>账号的电子邮件地址。</translation>
    </message>
    <message>
        <source>Create the account first.</source>
        <translation>先创建账号。</translation>
    </message>
    <message>
        <source>Log out: the provider revokes the token, the keychain forgets it.</source>
        <translation>退出登录：服务商吊销令牌，钥匙串删除它。</translation>
    </message>
    <message>
        <source>Who is logged in, where, and the balance.</source>
        <translation>谁已登录、登录到哪里，以及余额。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Apps</name>
    <message>
        <source>open takes NAME [APP].</source>
        <translation>open 需要 NAME [APP]。</translation>
    </message>
    <message>
        <source>cardhourctl open: %1 has no app (its image %2 lists none).</source>
        <translation>cardhourctl open：%1 没有应用（其镜像 %2 未列出任何应用）。</translation>
    </message>
    <message>
        <source>cardhourctl open: %1 has no app %2 (it has: %3).</source>
        <translation>cardhourctl open：%1 没有应用 %2（它有：%3）。</translation>
    </message>
    <message>
        <source>%1 has several apps; name one: %2.</source>
        <translation>%1 有多个应用；请指定一个：%2。</translation>
    </message>
    <message>
        <source>cardhourctl open: %1 is %2, not running.</source>
        <translation>cardhourctl open：%1 处于 %2 状态，未在运行。</translation>
    </message>
    <message>
        <source>%1 of %2 is at that address (through SSH); Ctrl-C ends it.</source>
        <translation>%2 的 %1 就在这个地址（通过 SSH）；按 Ctrl-C 结束。</translation>
    </message>
    <message>
        <source>cardhourctl open: %1</source>
        <translation>cardhourctl open：%1</translation>
    </message>
    <message>
        <source>A host&apos;s one-click app through an SSH forward (until interrupted).</source>
        <translation>通过 SSH 转发打开主机的一键应用（直到被中断）。</translation>
    </message>
    <message>
        <source>Opened it in the browser.</source>
        <translation>已在浏览器中打开。</translation>
    </message>
    <message>
        <source>No browser opened (%1); open the address yourself.</source>
        <translation>未打开浏览器（%1）；请自行打开该地址。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Bill</name>
    <message>
        <source>bill takes no arguments.</source>
        <translation>bill 不接受参数。</translation>
    </message>
    <message>
        <source>balance:</source>
        <translation>余额：</translation>
    </message>
    <message>
        <source>spending:</source>
        <translation>花费：</translation>
    </message>
    <message>
        <source>%1/h</source>
        <translation>%1/小时</translation>
    </message>
    <message>
        <source>runs out:</source>
        <translation>用完时间：</translation>
    </message>
    <message>
        <source>never (nothing runs)</source>
        <translation>永不（没有运行中的主机）</translation>
    </message>
    <message>
        <source>HOST</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>SPENDING</source>
        <translation>花费速度</translation>
    </message>
    <message>
        <source>COST</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>ledger takes no arguments.</source>
        <translation>ledger 不接受参数。</translation>
    </message>
    <message>
        <source>--json or --csv, not both.</source>
        <translation>--json 与 --csv 只能选一个。</translation>
    </message>
    <message>
        <source>TIME</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>KIND</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>AMOUNT</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>BALANCE</source>
        <translation>余额</translation>
    </message>
    <message>
        <source>DESCRIPTION</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>%1 is not an amount of yuan (e.g. 50 or 12.50).</source>
        <translation>%1 不是人民币金额（例如 50 或 12.50）。</translation>
    </message>
    <message>
        <source>Added %1; the balance is %2.</source>
        <translation>已充值 %1；余额为 %2。</translation>
    </message>
    <message>
        <source>The balance, what it is spent at, when it runs out, per host.</source>
        <translation>余额、花费速度、何时用完，以及每台主机的情况。</translation>
    </message>
    <message>
        <source>Every posting of the account, newest first.</source>
        <translation>账号的每一笔记账，最新的在前。</translation>
    </message>
    <message>
        <source>As CSV (amounts in micro-yuan).</source>
        <translation>以 CSV 输出（金额单位为微元）。</translation>
    </message>
    <message>
        <source>Add money (the sandbox&apos;s pretend payment).</source>
        <translation>充值（沙盒中的模拟付款）。</translation>
    </message>
    <message>
        <source>--since wants a date (2026-12-01) or a time (2026-12-01T18:30), not “%1”.</source>
        <translation>--since 需要一个日期（2026-12-01）或时间（2026-12-01T18:30），而不是“%1”。</translation>
    </message>
    <message>
        <source>Only the postings from DATE (local midnight) or an ISO 8601 time on.</source>
        <translation>只显示从 DATE（当地午夜）或某个 ISO 8601 时间起的记账。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Chaos</name>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>KIND</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>HOST</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>WHAT</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>chaos add wants one of: %1.</source>
        <translation>chaos add 需要以下之一：%1。</translation>
    </message>
    <message>
        <source>chaos add %1 takes the NAME of one host.</source>
        <translation>chaos add %1 需要一台主机的名称（NAME）。</translation>
    </message>
    <message>
        <source>chaos add %1 takes no host.</source>
        <translation>chaos add %1 不接受主机参数。</translation>
    </message>
    <message>
        <source>slow-api wants --delay-ms N and --duration-s S.</source>
        <translation>slow-api 需要 --delay-ms N 和 --duration-s S。</translation>
    </message>
    <message>
        <source>chaos ls takes no arguments.</source>
        <translation>chaos ls 不接受参数。</translation>
    </message>
    <message>
        <source>chaos clear takes one fault ID, or --all.</source>
        <translation>chaos clear 需要一个故障 ID，或 --all。</translation>
    </message>
    <message>
        <source>add, ls or clear?</source>
        <translation>add、ls 还是 clear？</translation>
    </message>
    <message>
        <source>no chaos command %1.</source>
        <translation>没有 chaos 命令 %1。</translation>
    </message>
    <message>
        <source>Rehearse failures: add fail-launch|slow-api|drop-ssh NAME|fill-disk NAME; ls; clear ID|--all.</source>
        <translation>演练故障：add fail-launch|slow-api|drop-ssh NAME|fill-disk NAME；ls；clear ID|--all。</translation>
    </message>
    <message>
        <source>add fail-launch: the error the launch fails with.</source>
        <translation>add fail-launch：启动失败时给出的错误。</translation>
    </message>
    <message>
        <source>add slow-api: hold every answer this long (1-10000).</source>
        <translation>add slow-api：每个应答延迟这么多毫秒（1-10000）。</translation>
    </message>
    <message>
        <source>add slow-api: for this many seconds (1-600).</source>
        <translation>add slow-api：持续这么多秒（1-600）。</translation>
    </message>
    <message>
        <source>clear: every armed or active fault.</source>
        <translation>clear：所有已布置或生效中的故障。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Cli</name>
    <message>
        <source>The provider at URL (default: $CARDHOUR_PROVIDER_URL, else the local sandbox).</source>
        <translation>使用 URL 处的服务商（默认：$CARDHOUR_PROVIDER_URL，否则为本地沙盒）。</translation>
    </message>
    <message>
        <source>Start or attach to the local sandbox, as the desktop client does.</source>
        <translation>启动或连接本地沙盒，与桌面客户端相同。</translation>
    </message>
    <message>
        <source>Also trust the certificate authorities in FILE (PEM) for an https:// provider with a certificate of its own.</source>
        <translation>对自带证书的 https:// 服务商，同时信任 FILE（PEM）中的证书颁发机构。</translation>
    </message>
    <message>
        <source>Print data as JSON (the API&apos;s field names).</source>
        <translation>以 JSON 输出数据（使用 API 的字段名）。</translation>
    </message>
    <message>
        <source>Show help (for a command: after it).</source>
        <translation>显示帮助（某个命令的帮助：写在命令之后）。</translation>
    </message>
    <message>
        <source>Show the version.</source>
        <translation>显示版本。</translation>
    </message>
    <message>
        <source>Usage: cardhourctl %1 [options]</source>
        <translation>用法：cardhourctl %1 [选项]</translation>
    </message>
    <message>
        <source>Options:
</source>
        <translation>选项：
</translation>
    </message>
    <message>
        <source>Global options:
</source>
        <translation>全局选项：
</translation>
    </message>
    <message>
        <source>Usage: cardhourctl [global options] COMMAND [options] [arguments]

CardHour on the command line: the same provider, log-in and SSH keys as the desktop client.

Commands:
</source>
        <translation>用法：cardhourctl [全局选项] COMMAND [选项] [参数]

命令行上的 CardHour：与桌面客户端使用相同的服务商、登录和 SSH 密钥。

命令：
</translation>
    </message>
    <message>
        <source>Environment:
  CARDHOUR_PROVIDER_URL      the provider when --provider is not given
  CARDHOUR_KEYCHAIN_SERVICE  the keychain service name (default CardHour)
  CARDHOUR_SSH               the OpenSSH client to run (default ssh)

`cardhourctl COMMAND --help` describes a command.
</source>
        <translation>环境变量：
  CARDHOUR_PROVIDER_URL      未给出 --provider 时使用的服务商
  CARDHOUR_KEYCHAIN_SERVICE  钥匙串服务名（默认 CardHour）
  CARDHOUR_SSH               要运行的 OpenSSH 客户端（默认 ssh）

`cardhourctl COMMAND --help` 介绍某个命令。
</translation>
    </message>
    <message>
        <source>Try `cardhourctl %1 --help`.</source>
        <translation>请试试 `cardhourctl %1 --help`。</translation>
    </message>
    <message>
        <source>cardhourctl: no command %1; `cardhourctl --help` lists them.</source>
        <translation>cardhourctl：没有命令 %1；`cardhourctl --help` 会列出所有命令。</translation>
    </message>
    <message>
        <source>cardhourctl: --sandbox and --provider exclude each other.</source>
        <translation>cardhourctl：--sandbox 与 --provider 不能同时使用。</translation>
    </message>
    <message>
        <source>Exit status:
  0  done
  1  failed (the provider refused, could not be reached, or the work failed)
  2  usage (a wrong command line, or an answer needed and no terminal)
  3  not logged in, or the provider refused the token
  4  not found (no such host or key)
  5  refused for money (HTTP 402: the balance does not cover it)
  6  timed out
  7  interrupted (the provider stopped the interruptible host waited for)
</source>
        <translation>退出状态：
  0  完成
  1  失败（服务商拒绝、无法连接，或工作失败）
  2  用法错误（命令行有误，或需要回答但没有终端）
  3  未登录，或服务商拒绝了令牌
  4  未找到（没有这台主机或这个密钥）
  5  因余额被拒绝（HTTP 402：余额不足）
  6  超时
  7  被中断（服务商停止了正在等待的可中断主机）
</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Context</name>
    <message>
        <source>Not logged in to %1. Run `cardhourctl login` first.</source>
        <translation>未登录 %1。请先运行 `cardhourctl login`。</translation>
    </message>
    <message>
        <source>cardhourctl: %1</source>
        <translation>cardhourctl：%1</translation>
    </message>
    <message>
        <source>cardhourctl %1: %2</source>
        <translation>cardhourctl %1：%2</translation>
    </message>
    <message>
        <source>Run `cardhourctl login` to log in again.</source>
        <translation>请运行 `cardhourctl login` 重新登录。</translation>
    </message>
    <message>
        <source>Try `cardhourctl %1 --help`.</source>
        <translation>请试试 `cardhourctl %1 --help`。</translation>
    </message>
    <message>
        <source>%1 is missing.</source>
        <translation>缺少 %1。</translation>
    </message>
    <message>
        <source>one %1 only, not %2.</source>
        <translation>只能有一个 %1，而不是 %2。</translation>
    </message>
    <message>
        <source>%1 hosts are called %2; give the id.</source>
        <translation>有 %1 台主机叫 %2；请给出 id。</translation>
    </message>
    <message>
        <source>cardhourctl %1: no host %2 (`cardhourctl ls` lists them).</source>
        <translation>cardhourctl %1：没有主机 %2（`cardhourctl ls` 会列出主机）。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Copy</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>[%1] %2%  %3 of %4  %5/s  %6</source>
        <translation>[%1] %2%  %3 / %4  %5/秒  %6</translation>
    </message>
    <message>
        <source>cp takes SOURCE DESTINATION: LOCAL NAME:REMOTE to upload, NAME:REMOTE LOCAL to download.</source>
        <translation>cp 需要 SOURCE DESTINATION：上传为 LOCAL NAME:REMOTE，下载为 NAME:REMOTE LOCAL。</translation>
    </message>
    <message>
        <source>both %1 and %2 are on hosts; one side must be local.</source>
        <translation>%1 和 %2 都在主机上；必须有一端在本地。</translation>
    </message>
    <message>
        <source>neither %1 nor %2 names a host (NAME:PATH).</source>
        <translation>%1 和 %2 都没有指定主机（NAME:PATH）。</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>%1 is a file; the copy keeps its name %2, so give a folder.</source>
        <translation>%1 是文件；复制会保留原名 %2，请给出文件夹。</translation>
    </message>
    <message>
        <source>cardhourctl cp: %1</source>
        <translation>cardhourctl cp：%1</translation>
    </message>
    <message>
        <source>Resumed: %1 were already there, %2 sent.</source>
        <translation>已续传：%1 已在目标处，本次发送 %2。</translation>
    </message>
    <message>
        <source>%1 in %2 s (%3/s).</source>
        <translation>%1，用时 %2 秒（%3/秒）。</translation>
    </message>
    <message>
        <source>Copy a file or folder to or from a host over SFTP (resumable, SHA-256 checked).</source>
        <translation>通过 SFTP 在主机与本地之间复制文件或文件夹（可续传，SHA-256 校验）。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Hosts</name>
    <message>
        <source>%1/h</source>
        <translation>%1/小时</translation>
    </message>
    <message>
        <source>%1 takes no arguments.</source>
        <translation>%1 不接受参数。</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>VRAM</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>PRICE/CARD</source>
        <translation>每卡价格</translation>
    </message>
    <message>
        <source>FREE</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>OS</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>SSH USER</source>
        <translation>SSH 用户</translation>
    </message>
    <message>
        <source>APPS</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>MOUNTED AT</source>
        <translation>挂载位置</translation>
    </message>
    <message>
        <source>SIZE</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>FILES</source>
        <translation>文件数</translation>
    </message>
    <message>
        <source>AVAILABLE</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>GPUS</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>IMAGE</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>PRICE</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>COST</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>id:</source>
        <translation>id：</translation>
    </message>
    <message>
        <source>state:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <source>gpus:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>image:</source>
        <translation>镜像：</translation>
    </message>
    <message>
        <source>datasets:</source>
        <translation>数据集：</translation>
    </message>
    <message>
        <source>price:</source>
        <translation>价格：</translation>
    </message>
    <message>
        <source>cost so far:</source>
        <translation>累计费用：</translation>
    </message>
    <message>
        <source>created:</source>
        <translation>创建时间：</translation>
    </message>
    <message>
        <source>ssh:</source>
        <translation>ssh：</translation>
    </message>
    <message>
        <source>host key:</source>
        <translation>主机密钥：</translation>
    </message>
    <message>
        <source>app %1:</source>
        <translation>应用 %1：</translation>
    </message>
    <message>
        <source>port %1</source>
        <translation>端口 %1</translation>
    </message>
    <message>
        <source>  %1  %2 s</source>
        <translation>  %1  %2 秒</translation>
    </message>
    <message>
        <source>cardhourctl %1: %2 is %3%4, not %5.</source>
        <translation>cardhourctl %1：%2 处于 %3%4，而不是 %5。</translation>
    </message>
    <message>
        <source>cardhourctl %1: timed out after %2 s: %3 is %4, not %5.</source>
        <translation>cardhourctl %1：%2 秒后超时：%3 处于 %4，而不是 %5。</translation>
    </message>
    <message>
        <source>--timeout wants seconds, not %1.</source>
        <translation>--timeout 需要秒数，而不是 %1。</translation>
    </message>
    <message>
        <source>launch takes options only, not %1.</source>
        <translation>launch 只接受选项，不接受 %1。</translation>
    </message>
    <message>
        <source>--gpu TYPE is missing (`cardhourctl gpus` lists them).</source>
        <translation>缺少 --gpu TYPE（`cardhourctl gpus` 会列出类型）。</translation>
    </message>
    <message>
        <source>--cards wants a number of cards, not %1.</source>
        <translation>--cards 需要卡数，而不是 %1。</translation>
    </message>
    <message>
        <source>cardhourctl launch: no SSH key %1 on the provider (`cardhourctl keys list`).</source>
        <translation>cardhourctl launch：服务商处没有 SSH 密钥 %1（`cardhourctl keys list`）。</translation>
    </message>
    <message>
        <source>Launching %1 (%2)…</source>
        <translation>正在启动 %1（%2）…</translation>
    </message>
    <message>
        <source>nothing (the provider keeps no files for it)</source>
        <translation>无（服务商没有为它保留文件）</translation>
    </message>
    <message>
        <source>terminating %1 deletes %2; stdin is not a terminal to ask, so give --yes.</source>
        <translation>终止 %1 会删除 %2；stdin 不是终端，无法询问，请加上 --yes。</translation>
    </message>
    <message>
        <source>Terminate %1? This deletes for good: %2. [y/N] </source>
        <translation>终止 %1？这将永久删除：%2。[y/N] </translation>
    </message>
    <message>
        <source>Nothing was deleted.</source>
        <translation>没有删除任何东西。</translation>
    </message>
    <message>
        <source>Deleted: %1.</source>
        <translation>已删除：%1。</translation>
    </message>
    <message>
        <source>--state STATE is missing.</source>
        <translation>缺少 --state STATE。</translation>
    </message>
    <message>
        <source>no state %1 (creating, starting, running, stopping, stopped, terminated, failed).</source>
        <translation>没有状态 %1（creating、starting、running、stopping、stopped、terminated、failed）。</translation>
    </message>
    <message>
        <source>Give up after SECONDS (exit status 6; default %1).</source>
        <translation>SECONDS 秒后放弃（退出状态 6；默认 %1）。</translation>
    </message>
    <message>
        <source>The GPU types, their prices and free cards.</source>
        <translation>GPU 类型、价格和空闲卡数。</translation>
    </message>
    <message>
        <source>The images a host can start from.</source>
        <translation>主机可以使用的镜像。</translation>
    </message>
    <message>
        <source>The shared datasets a host can mount (read-only).</source>
        <translation>主机可以挂载的共享数据集（只读）。</translation>
    </message>
    <message>
        <source>The hosts.</source>
        <translation>主机列表。</translation>
    </message>
    <message>
        <source>Terminated hosts too.</source>
        <translation>也包括已终止的主机。</translation>
    </message>
    <message>
        <source>One host in full.</source>
        <translation>一台主机的全部信息。</translation>
    </message>
    <message>
        <source>Launch a host, or restore a snapshot (with --wait: until SSH answers).</source>
        <translation>启动主机，或恢复快照（加 --wait：等到 SSH 应答）。</translation>
    </message>
    <message>
        <source>How many cards (1, 2, 4 or 8).</source>
        <translation>卡数（1、2、4 或 8）。</translation>
    </message>
    <message>
        <source>The image (default: the catalog&apos;s first).</source>
        <translation>镜像（默认：目录中的第一个）。</translation>
    </message>
    <message>
        <source>Restore a snapshot (`cardhourctl snapshot ls`): its disk and /workspace, its GPU type unless --gpu.</source>
        <translation>恢复快照（`cardhourctl snapshot ls`）：其磁盘和 /workspace，未给出 --gpu 时使用其 GPU 类型。</translation>
    </message>
    <message>
        <source>A shared dataset to mount (repeatable).</source>
        <translation>要挂载的共享数据集（可重复）。</translation>
    </message>
    <message>
        <source>The host&apos;s name (default: the provider&apos;s).</source>
        <translation>主机名称（默认：由服务商决定）。</translation>
    </message>
    <message>
        <source>Stop a host (its disk is kept and billed as storage).</source>
        <translation>停止主机（保留其磁盘，按存储计费）。</translation>
    </message>
    <message>
        <source>Start a stopped host again.</source>
        <translation>重新启动已停止的主机。</translation>
    </message>
    <message>
        <source>Terminate a host for good (asks first, unless --yes).</source>
        <translation>永久终止主机（先询问，除非加 --yes）。</translation>
    </message>
    <message>
        <source>Do not ask.</source>
        <translation>不询问。</translation>
    </message>
    <message>
        <source>Wait until a host is in a state.</source>
        <translation>等待主机进入某个状态。</translation>
    </message>
    <message>
        <source>The state to wait for (e.g. running).</source>
        <translation>要等待的状态（例如 running）。</translation>
    </message>
    <message>
        <source>cardhourctl launch: the account has no SSH key and none could be made here (%1), so nobody could log in to the host: not launched. Upload one first (`cardhourctl keys upload KEY.pub`).</source>
        <translation>cardhourctl launch：账户中没有 SSH 密钥，而且无法在此创建（%1），因此没有人能登录该主机：未启动。请先上传一个（`cardhourctl keys upload KEY.pub`）。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Installing SSH keys: %1</source>
        <translation>正在安装 SSH 密钥：%1</translation>
    </message>
    <message>
        <source>An SSH key to authorise, by name, id or fingerprint (repeatable; default: all of the account&apos;s, or one made and uploaded when it has none).</source>
        <translation>要授权的 SSH 密钥，按名称、ID 或指纹指定（可重复；默认：账户中的全部密钥，账户中没有时则创建并上传一个）。</translation>
    </message>
    <message>
        <source>The account had no SSH key: made “%1” (%2) in %3, without a passphrase, readable only by you, and uploaded it.</source>
        <translation>账户中没有 SSH 密钥：已在 %3 创建“%1”（%2），无密码短语，仅您可读，并已上传。</translation>
    </message>
    <message>
        <source>--snapshot brings its own disk: it takes no --image, --dataset or --model.</source>
        <translation>--snapshot 自带磁盘：不能再用 --image、--dataset 或 --model。</translation>
    </message>
    <message>
        <source>A model of `cardhourctl models` to mount read-only at /models/NAME (repeatable).</source>
        <translation>以只读方式挂载到 /models/NAME 的模型（见 `cardhourctl models`，可重复）。</translation>
    </message>
    <message>
        <source>SHARE</source>
        <translation>份额</translation>
    </message>
    <message>
        <source>%1/%2 SMs, %3/%4 VRAM of %5</source>
        <translation>%5 的 %1/%2 SM、%3/%4 显存</translation>
    </message>
    <message>
        <source>whole card</source>
        <translation>整卡</translation>
    </message>
    <message>
        <source>The GPU type or MIG slice (`cardhourctl gpus`).</source>
        <translation>GPU 类型或 MIG 切片（`cardhourctl gpus`）。</translation>
    </message>
    <message>
        <source>INTERRUPTIBLE</source>
        <translation>可中断价</translation>
    </message>
    <message>
        <source>%1 (interruptible)</source>
        <translation>%1（可中断）</translation>
    </message>
    <message>
        <source>interrupted at:</source>
        <translation>中断时间：</translation>
    </message>
    <message>
        <source>after an interruption:</source>
        <translation>中断之后：</translation>
    </message>
    <message>
        <source>starts again once cards of its type are free</source>
        <translation>该型号有空闲显卡时自动重新启动</translation>
    </message>
    <message>
        <source>cardhourctl %1: the provider interrupted %2 (an interruptible host) to free its cards; /workspace is kept. Start it again with `cardhourctl start %2`.</source>
        <translation>cardhourctl %1：服务商为腾出显卡中断了 %2（可中断主机）；/workspace 已保留。可用 `cardhourctl start %2` 重新启动。</translation>
    </message>
    <message>
        <source>--restart-when-available is for an --interruptible host.</source>
        <translation>--restart-when-available 只用于 --interruptible 主机。</translation>
    </message>
    <message>
        <source>--snapshot launches on demand: it takes no --interruptible.</source>
        <translation>--snapshot 以按需价启动：不接受 --interruptible。</translation>
    </message>
    <message>
        <source>The cheaper price class the provider may interrupt (with a notice) when it needs the cards; /workspace is kept.</source>
        <translation>更便宜的价格类别，服务商需要显卡时可（提前通知后）中断它；/workspace 会保留。</translation>
    </message>
    <message>
        <source>With --interruptible: start it again once cards of its type are free after an interruption.</source>
        <translation>与 --interruptible 一起用：中断后该型号有空闲显卡时自动重新启动。</translation>
    </message>
    <message>
        <source>Return once the host runs and SSH answered (exit status 7 if it is interrupted first).</source>
        <translation>等主机运行且 SSH 应答后再返回（若先被中断，退出状态为 7）。</translation>
    </message>
    <message>
        <source>hardware check:</source>
        <translation>硬件检查：</translation>
    </message>
    <message>
        <source>passed: the box has what was ordered (%1 × %2)</source>
        <translation>通过：主机配置与订单一致（%1 × %2）</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>未通过：%1</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Limits</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Stop at this time (18:30 or ISO 8601).</source>
        <translation>在此时间停止（18:30 或 ISO 8601）。</translation>
    </message>
    <message>
        <source>Stop after this long (2h, 90m).</source>
        <translation>运行这么久后停止（2h、90m）。</translation>
    </message>
    <message>
        <source>Stop once the host has cost this many yuan.</source>
        <translation>主机花费达到这么多元时停止。</translation>
    </message>
    <message>
        <source>Stop when its cards stay idle (under 5 %) for MIN minutes, given after it (default 30).</source>
        <translation>当其显卡持续空闲（低于 5 %）MIN 分钟时停止，MIN 写在此选项之后（默认 30）。</translation>
    </message>
    <message>
        <source>With --idle-stop: only while no SSH or app connection is open.</source>
        <translation>与 --idle-stop 一起使用：仅在没有打开的 SSH 或应用连接时。</translation>
    </message>
    <message>
        <source>--stop-at or --stop-after, not both.</source>
        <translation>--stop-at 或 --stop-after，不能同时使用。</translation>
    </message>
    <message>
        <source>%1 is not a time (18:30 or 2026-12-01T18:30:00Z).</source>
        <translation>%1 不是一个时间（18:30 或 2026-12-01T18:30:00Z）。</translation>
    </message>
    <message>
        <source>%1 is not a duration (2h, 90m, 1h30m).</source>
        <translation>%1 不是一段时长（2h、90m、1h30m）。</translation>
    </message>
    <message>
        <source>%1 is not an amount of yuan.</source>
        <translation>%1 不是一个以元为单位的金额。</translation>
    </message>
    <message>
        <source>--idle-stop wants whole minutes (2 or more), not %1.</source>
        <translation>--idle-stop 需要整数分钟（2 或更多），而不是 %1。</translation>
    </message>
    <message>
        <source>alerted</source>
        <translation>已提醒</translation>
    </message>
    <message>
        <source>PERIOD</source>
        <translation>周期</translation>
    </message>
    <message>
        <source>SPENT</source>
        <translation>已消费</translation>
    </message>
    <message>
        <source>ALERT</source>
        <translation>提醒</translation>
    </message>
    <message>
        <source>MAX</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>ENDS</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>Days and months in %1.</source>
        <translation>日和月按 %1 时区计算。</translation>
    </message>
    <message>
        <source>limits takes options only.</source>
        <translation>limits 只接受选项。</translation>
    </message>
    <message>
        <source>%1 is not an amount of yuan (or none).</source>
        <translation>%1 不是一个以元为单位的金额（或 none）。</translation>
    </message>
    <message>
        <source>stop at:</source>
        <translation>停止时间：</translation>
    </message>
    <message>
        <source>max cost:</source>
        <translation>费用上限：</translation>
    </message>
    <message>
        <source>idle stop:</source>
        <translation>空闲停止：</translation>
    </message>
    <message>
        <source>under %1 % for %2 min%3</source>
        <translation>低于 %1 % 持续 %2 分钟%3</translation>
    </message>
    <message>
        <source>, no connections</source>
        <translation>，且无连接</translation>
    </message>
    <message>
        <source>stops:</source>
        <translation>将停止：</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>timer wants the host&apos;s name or id.</source>
        <translation>timer 需要主机的名称或 ID。</translation>
    </message>
    <message>
        <source>--clear or new stop options, not both.</source>
        <translation>--clear 或新的停止选项，不能同时使用。</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>The most the %1 may spend, in yuan (none: no maximum).</source>
        <translation>%1 最多可消费的金额，单位元（none：无上限）。</translation>
    </message>
    <message>
        <source>Alert when the %1 has spent this much.</source>
        <translation>%1 消费达到此金额时提醒。</translation>
    </message>
    <message>
        <source>Remove the host&apos;s stop policy.</source>
        <translation>移除主机的停止策略。</translation>
    </message>
    <message>
        <source>Spending limits per day, month and in total (shown, or changed).</source>
        <translation>每日、每月和总计的消费限额（显示或修改）。</translation>
    </message>
    <message>
        <source>A host&apos;s stop time, maximum cost and idle stop (shown, or changed).</source>
        <translation>主机的停止时间、费用上限和空闲停止（显示或修改）。</translation>
    </message>
    <message>
        <source>Postpone a host&apos;s pending idle stop once.</source>
        <translation>将主机即将进行的空闲停止推迟一次。</translation>
    </message>
    <message>
        <source>%1 stops at %2 (%3).</source>
        <translation>%1 将于 %2 停止（%3）。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::ModelWords</name>
    <message>
        <source>free</source>
        <translation>免费</translation>
    </message>
    <message>
        <source>%1/30 days</source>
        <translation>%1/30 天</translation>
    </message>
    <message>
        <source>models ls takes no arguments.</source>
        <translation>models ls 不接受参数。</translation>
    </message>
    <message>
        <source>private</source>
        <translation>私有</translation>
    </message>
    <message>
        <source>public</source>
        <translation>公共</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>OWNER</source>
        <translation>所有者</translation>
    </message>
    <message>
        <source>TASK</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>SIZE</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>STORAGE FEE</source>
        <translation>存储费</translation>
    </message>
    <message>
        <source>MOUNTED AT</source>
        <translation>挂载位置</translation>
    </message>
    <message>
        <source>models upload takes one FILE.</source>
        <translation>models upload 需要一个文件（FILE）。</translation>
    </message>
    <message>
        <source>Carrying on from %1 of %2: the provider kept what it received.</source>
        <translation>从 %1 / %2 处继续：服务商保留了已收到的部分。</translation>
    </message>
    <message>
        <source>The provider checked its SHA-256; hosts see it at %1; keeping it costs %2.</source>
        <translation>服务商已核对其 SHA-256；主机在 %1 看到它；保留它的费用为 %2。</translation>
    </message>
    <message>
        <source>models rm takes one model NAME.</source>
        <translation>models rm 需要一个模型名称（NAME）。</translation>
    </message>
    <message>
        <source>cardhourctl models rm: you have no model %1 (public models belong to the provider).</source>
        <translation>cardhourctl models rm：您没有名为 %1 的模型（公共模型属于服务商）。</translation>
    </message>
    <message>
        <source>cardhourctl models rm: %1 is kept: it is mounted by %2. Terminate them first (`cardhourctl rm HOST`).</source>
        <translation>cardhourctl models rm：%1 已保留：%2 挂载了它。请先终止这些主机（`cardhourctl rm HOST`）。</translation>
    </message>
    <message>
        <source>no models command %1 (ls, upload or rm).</source>
        <translation>没有 models 子命令 %1（可用 ls、upload 或 rm）。</translation>
    </message>
    <message>
        <source>The model library: ls; upload FILE (resumes an interrupted upload); rm NAME.</source>
        <translation>模型库：ls；upload FILE（可续传中断的上传）；rm NAME。</translation>
    </message>
    <message>
        <source>upload: the model&apos;s name (default: the file&apos;s).</source>
        <translation>upload：模型名称（默认取文件名）。</translation>
    </message>
    <message>
        <source>upload: what the model does.</source>
        <translation>upload：模型的用途。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Snapshots</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>Keeps: %1; does not keep: %2.</source>
        <translation>保留：%1；不保留：%2。</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Billed as storage while kept: %1 per GiB and hour%2.</source>
        <translation>保留期间按存储计费：每 GiB 每小时 %1%2。</translation>
    </message>
    <message>
        <source> (%1 GiB: %2/h)</source>
        <translation>（%1 GiB：%2/小时）</translation>
    </message>
    <message>
        <source>cardhourctl snapshot: %1 is %2%3.</source>
        <translation>cardhourctl snapshot：%1 处于 %2%3。</translation>
    </message>
    <message>
        <source>cardhourctl snapshot: timed out after %1 s: %2 is %3.</source>
        <translation>cardhourctl snapshot：%1 秒后超时：%2 处于 %3。</translation>
    </message>
    <message>
        <source>snapshot create takes the NAME of one host.</source>
        <translation>snapshot create 需要一台主机的 NAME。</translation>
    </message>
    <message>
        <source>--timeout wants seconds, not %1.</source>
        <translation>--timeout 需要秒数，而不是 %1。</translation>
    </message>
    <message>
        <source>Taking %1 of %2…</source>
        <translation>正在为 %2 制作快照 %1…</translation>
    </message>
    <message>
        <source>%1 (%2) of %3 is %4.</source>
        <translation>%3 的快照 %1（%2）处于 %4。</translation>
    </message>
    <message>
        <source>snapshot ls takes no arguments.</source>
        <translation>snapshot ls 不接受参数。</translation>
    </message>
    <message>
        <source>%1/h</source>
        <translation>%1/小时</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>CARDS</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>IMAGE</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>SIZE</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>STORAGE</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>COST SO FAR</source>
        <translation>累计费用</translation>
    </message>
    <message>
        <source>TAKEN</source>
        <translation>制作时间</translation>
    </message>
    <message>
        <source>snapshot rm takes one snapshot ID (or name).</source>
        <translation>snapshot rm 需要一个快照 ID（或名称）。</translation>
    </message>
    <message>
        <source>cardhourctl snapshot rm: no snapshot %1 (`cardhourctl snapshot ls` lists them).</source>
        <translation>cardhourctl snapshot rm：没有快照 %1（`cardhourctl snapshot ls` 会列出快照）。</translation>
    </message>
    <message>
        <source>%1 snapshots are called %2; give the id.</source>
        <translation>有 %1 个快照叫 %2；请给出 id。</translation>
    </message>
    <message>
        <source>create, ls or rm?</source>
        <translation>create、ls 还是 rm？</translation>
    </message>
    <message>
        <source>no snapshot command %1.</source>
        <translation>没有 snapshot 子命令 %1。</translation>
    </message>
    <message>
        <source>Snapshots: create NAME; ls; rm ID. Restore: launch --snapshot ID.</source>
        <translation>快照：create NAME；ls；rm ID。恢复：launch --snapshot ID。</translation>
    </message>
    <message>
        <source>create: the snapshot&apos;s name.</source>
        <translation>create：快照的名称。</translation>
    </message>
    <message>
        <source>create: return once it is ready.</source>
        <translation>create：等快照就绪后再返回。</translation>
    </message>
    <message>
        <source>create --wait: give up after SECONDS (exit status 6; default 600).</source>
        <translation>create --wait：SECONDS 秒后放弃（退出状态 6；默认 600）。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Top</name>
    <message>
        <source>%1 / %2 GiB</source>
        <translation>%1 / %2 GiB</translation>
    </message>
    <message>
        <source>%1/h</source>
        <translation>%1/小时</translation>
    </message>
    <message>
        <source>balance %1   spending %2/h   %3

</source>
        <translation>余额 %1   花费 %2/小时   %3

</translation>
    </message>
    <message>
        <source>No hosts (`cardhourctl launch` starts one).
</source>
        <translation>没有主机（`cardhourctl launch` 可启动一台）。
</translation>
    </message>
    <message>
        <source>HOST</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>CARDS</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>UTIL</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>VRAM</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>TEMP</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>PRICE</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>COST</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>top takes no arguments.</source>
        <translation>top 不接受参数。</translation>
    </message>
    <message>
        <source>
(q quits; from the provider&apos;s event stream)
</source>
        <translation>
（按 q 退出；数据来自服务商的事件流）
</translation>
    </message>
    <message>
        <source>The hosts live: each card&apos;s utilisation and VRAM, the cost (q quits).</source>
        <translation>实时显示主机：每张卡的利用率和显存，以及费用（按 q 退出）。</translation>
    </message>
</context>
<context>
    <name>cardhour::ctl::Watch</name>
    <message>
        <source>events takes no arguments.</source>
        <translation>events 不接受参数。</translation>
    </message>
    <message>
        <source>--count wants a number, not %1.</source>
        <translation>--count 需要数字，而不是 %1。</translation>
    </message>
    <message>
        <source>--timeout wants seconds, not %1.</source>
        <translation>--timeout 需要秒数，而不是 %1。</translation>
    </message>
    <message>
        <source>cardhourctl events: the stream was lost (%1); reconnecting.</source>
        <translation>cardhourctl events：事件流断开（%1）；正在重新连接。</translation>
    </message>
    <message>
        <source>cardhourctl events: the provider refused the token.</source>
        <translation>cardhourctl events：服务商拒绝了令牌。</translation>
    </message>
    <message>
        <source>The provider&apos;s events as JSON lines (until interrupted, --count or --timeout).</source>
        <translation>以 JSON 行输出服务商的事件（直到被中断、达到 --count 或 --timeout）。</translation>
    </message>
    <message>
        <source>Only events of this type: hello, instance, billing, metrics, snapshot (repeatable).</source>
        <translation>只输出此类型的事件：hello、instance、billing、metrics、snapshot（可重复）。</translation>
    </message>
    <message>
        <source>Stop after N events.</source>
        <translation>收到 N 个事件后停止。</translation>
    </message>
    <message>
        <source>Stop after SECONDS (with --count: exit status 6 when fewer came).</source>
        <translation>SECONDS 秒后停止（与 --count 一起用时：收到的事件不足则退出状态为 6）。</translation>
    </message>
</context>
<context>
    <name>cardhour::terminal::TerminalWidget</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>粘贴</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>全选</translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Reset Zoom</source>
        <translation>重置缩放</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::AccountPage</name>
    <message>
        <source>Provider: %1</source>
        <translation>服务商：%1</translation>
    </message>
    <message>
        <source>This does not look like an e-mail address.</source>
        <translation>这看起来不像邮箱地址。</translation>
    </message>
    <message numerus="yes">
        <source>The password needs at least %n characters.</source>
        <translation>
            <numerusform>密码至少需要 %n 个字符。</numerusform>
        </translation>
    </message>
    <message>
        <source>The two passwords differ.</source>
        <translation>两次输入的密码不一致。</translation>
    </message>
    <message>
        <source>Sign up</source>
        <translation>注册</translation>
    </message>
    <message>
        <source>Log in</source>
        <translation>登录</translation>
    </message>
    <message>
        <source>Create your CardHour account</source>
        <translation>创建您的 CardHour 账户</translation>
    </message>
    <message>
        <source>Log in to CardHour</source>
        <translation>登录 CardHour</translation>
    </message>
    <message>
        <source>Asking the provider…</source>
        <translation>正在请求服务商…</translation>
    </message>
    <message>
        <source>E-mail address</source>
        <translation>邮箱地址</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Repeat the password</source>
        <translation>再次输入密码</translation>
    </message>
    <message>
        <source>Change provider</source>
        <translation>更换服务商</translation>
    </message>
    <message>
        <source>Back to the choice of provider</source>
        <translation>返回选择服务商</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>What the provider said</source>
        <translation>服务商的答复</translation>
    </message>
    <message>
        <source>Asking the provider</source>
        <translation>正在请求服务商</translation>
    </message>
    <message>
        <source>A new account starts with %1 of trial credit from this provider, to spend on GPU hosts before you top up.</source>
        <translation>新账户可获得该服务商提供的 %1 试用额度，在充值前即可用于 GPU 主机。</translation>
    </message>
    <message>
        <source>Create an account</source>
        <translation>创建账户</translation>
    </message>
    <message>
        <source>Log in to an account</source>
        <translation>登录已有账户</translation>
    </message>
    <message>
        <source>Trial credit</source>
        <translation>试用额度</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::AppsPanel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Models: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>Sample data: %1</source>
        <translation>示例数据：%1</translation>
    </message>
    <message>
        <source>Mounts nothing.</source>
        <translation>不挂载任何内容。</translation>
    </message>
    <message>
        <source>%1 × %2 · %3</source>
        <extracomment>cards × GPU name · price per hour of all the cards together</extracomment>
        <translation>%1 × %2 · %3</translation>
    </message>
    <message numerus="yes">
        <source>No GPU type has %n cards.</source>
        <translation>
            <numerusform>没有哪种 GPU 有 %n 张卡。</numerusform>
        </translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>Launching…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Add an SSH key first (Keys page): the app is reached through SSH.</source>
        <translation>请先添加 SSH 密钥（密钥页面）：应用通过 SSH 访问。</translation>
    </message>
    <message>
        <source>“%1” is %2.</source>
        <translation>“%1”%2。</translation>
    </message>
    <message>
        <source>“%1” is %2: %3</source>
        <translation>“%1”%2：%3</translation>
    </message>
    <message>
        <source>%1 answers: opening it…</source>
        <translation>%1 已响应：正在打开…</translation>
    </message>
    <message>
        <source>Starting (%1, %2)…</source>
        <extracomment>an app&apos;s launch in progress: the latest stage reached, and the seconds since the click</extracomment>
        <translation>正在启动（%1，%2）…</translation>
    </message>
    <message>
        <source>Opened in the browser %1 after the click.</source>
        <translation>点击后 %1 已在浏览器中打开。</translation>
    </message>
    <message>
        <source>Apps: one click launches, mounts and opens the web UI</source>
        <translation>应用：一键启动、挂载并打开网页界面</translation>
    </message>
    <message>
        <source>The apps could not be loaded: %1</source>
        <translation>无法加载应用：%1</translation>
    </message>
    <message>
        <source>Launch %1 on %2 × %3 for %4?</source>
        <extracomment>app name, cards × GPU name, price per hour of all the cards</extracomment>
        <translation>在 %2 × %3 上启动 %1（%4）？</translation>
    </message>
    <message>
        <source>Launch %1 for %2?</source>
        <extracomment>app name, price per hour of all its cards</extracomment>
        <translation>以 %2 启动 %1？</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::BillPanel</name>
    <message>
        <source>Balance:</source>
        <translation>余额：</translation>
    </message>
    <message>
        <source>Spending %1</source>
        <translation>消费速度 %1</translation>
    </message>
    <message>
        <source>Nothing is billed now</source>
        <translation>当前没有计费项目</translation>
    </message>
    <message>
        <source>Runs out in %1 (at %2)</source>
        <translation>%1 后用完（%2）</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::BillingController</name>
    <message>
        <source>The idle stop of %1 was put off.</source>
        <translation>%1 的空闲停止已推迟。</translation>
    </message>
    <message>
        <source>It could not be kept running: %1</source>
        <translation>无法继续运行：%1</translation>
    </message>
    <message>
        <source>%1 will stop at %2: %3.</source>
        <translation>%1 将于 %2 停止：%3。</translation>
    </message>
    <message>
        <source>A host will stop</source>
        <translation>一台主机即将停止</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <source>Added %1 (simulated payment). Balance: %2</source>
        <translation>已充值 %1（模拟支付）。余额：%2</translation>
    </message>
    <message>
        <source>Cards are free again: %1 is starting again.</source>
        <translation>显卡已空闲：%1 正在重新启动。</translation>
    </message>
    <message>
        <source>The provider interrupts %1 at %2 (in %3); /workspace is kept.</source>
        <translation>服务商将于 %2（%3后）中断 %1；/workspace 会保留。</translation>
    </message>
    <message>
        <source>The provider interrupted %1 at %2 to free its cards; /workspace is kept.</source>
        <translation>服务商于 %2 中断了 %1 以腾出显卡；/workspace 已保留。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::BillingPage</name>
    <message>
        <source>Ledger</source>
        <translation>账目</translation>
    </message>
    <message>
        <source>Statements</source>
        <translation>账单</translation>
    </message>
    <message>
        <source>Spending limits</source>
        <translation>消费限额</translation>
    </message>
    <message>
        <source>Cost comparison</source>
        <translation>成本比较</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::BuildLogDialog</name>
    <message>
        <source>Image build log</source>
        <translation>镜像构建日志</translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::ConnectionBanner</name>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>The provider cannot be reached; reconnecting. What you see may be out of date.</source>
        <translation>无法连接到服务商，正在重新连接。当前显示的内容可能已过时。</translation>
    </message>
    <message>
        <source>(%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>The provider is answering slowly: its last answer took %1 s.</source>
        <translation>服务商应答缓慢：上一次应答用了 %1 秒。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::CostCalculator</name>
    <message>
        <source>This provider costs %1 less than %2.</source>
        <translation>本服务商比%2便宜 %1。</translation>
    </message>
    <message>
        <source>This provider costs %1 more than %2.</source>
        <translation>本服务商比%2贵 %1。</translation>
    </message>
    <message>
        <source>This provider costs the same as %1.</source>
        <translation>本服务商与%1费用相同。</translation>
    </message>
    <message>
        <source>The catalog could not be loaded: %1</source>
        <translation>无法加载目录：%1</translation>
    </message>
    <message>
        <source>%1, %2 per card-hour</source>
        <translation>%1，每卡时 %2</translation>
    </message>
    <message>
        <source>Card price: enter a positive amount in yuan, e.g. 13500.</source>
        <translation>显卡价格：请输入以元为单位的正数金额，例如 13500。</translation>
    </message>
    <message>
        <source>Power and upkeep: enter an amount in yuan per year, e.g. 4500.</source>
        <translation>电费与维护：请输入每年的金额（元），例如 4500。</translation>
    </message>
    <message>
        <source>Public cloud price: enter a positive amount in yuan per card-hour, e.g. 4.55.</source>
        <translation>公有云价格：请输入每卡时的正数金额（元），例如 4.55。</translation>
    </message>
    <message>
        <source>These figures are too large to compare.</source>
        <translation>这些数字太大，无法比较。</translation>
    </message>
    <message>
        <source>Public cloud</source>
        <translation>公有云</translation>
    </message>
    <message>
        <source>Own cards (share)</source>
        <translation>自购显卡（分摊）</translation>
    </message>
    <message>
        <source>This provider</source>
        <translation>本服务商</translation>
    </message>
    <message>
        <source>This provider (charged)</source>
        <translation>本服务商（实收）</translation>
    </message>
    <message>
        <source>The catalog has not been loaded yet.</source>
        <translation>目录尚未加载。</translation>
    </message>
    <message>
        <source>%1 h × %2 cards = %3 card-hours.</source>
        <translation>%1 小时 × %2 张卡 = %3 卡时。</translation>
    </message>
    <message>
        <source>This provider (%1, %2 per card-hour): %3 × %2 = %4.</source>
        <translation>本服务商（%1，每卡时 %2）：%3 × %2 = %4。</translation>
    </message>
    <message>
        <source>Public cloud: %1 × %2 = %3.</source>
        <translation>公有云：%1 × %2 = %3。</translation>
    </message>
    <message>
        <source>Own cards: (%1 + %2 × %3 years) ÷ %4 h = %5 per card-hour when busy all %3 years; %6 × that = %7. Buying the %8 cards costs %9 up front.</source>
        <translation>自购显卡：（%1 + %2 × %3 年）÷ %4 小时 = 满负荷运行 %3 年时每卡时 %5；%6 × 该价 = %7。购买这 %8 张卡需先付 %9。</translation>
    </message>
    <message>
        <source>the public cloud</source>
        <translation>公有云</translation>
    </message>
    <message>
        <source>owned cards kept busy</source>
        <translation>满负荷运行的自购显卡</translation>
    </message>
    <message>
        <source>Your last %1 days (compute billed since %2):</source>
        <translation>您最近 %1 天（自 %2 起计费的计算）：</translation>
    </message>
    <message>
        <source>No compute in this time.</source>
        <translation>这段时间没有计算用量。</translation>
    </message>
    <message>
        <source>Compute postings: %1. Card-hours: %2. This provider charged %3.</source>
        <translation>计算记账条目：%1。卡时：%2。本服务商收费 %3。</translation>
    </message>
    <message>
        <source>Own cards&apos; share: %1.</source>
        <translation>自购显卡分摊：%1。</translation>
    </message>
    <message>
        <source>%1 postings (%2) of hosts whose size is no longer known are left out.</source>
        <translation>有 %1 条记账（%2）所属主机的规格已无从得知，未计入。</translation>
    </message>
    <message>
        <source>Card &amp;price (yuan):</source>
        <translation>显卡价格（元）(&amp;P)：</translation>
    </message>
    <message>
        <source>Power and &amp;upkeep per year:</source>
        <translation>每年电费与维护(&amp;U)：</translation>
    </message>
    <message>
        <source>&amp;Years written off:</source>
        <translation>折旧年数(&amp;Y)：</translation>
    </message>
    <message>
        <source>Public c&amp;loud per card-hour:</source>
        <translation>公有云每卡时价格(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;GPU type:</source>
        <translation>GPU 型号(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Cards:</source>
        <translation>卡数(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Hours:</source>
        <translation>小时数(&amp;H)：</translation>
    </message>
    <message>
        <source>Owning a card and a public cloud</source>
        <translation>自购显卡与公有云</translation>
    </message>
    <message>
        <source>Planned job</source>
        <translation>计划任务</translation>
    </message>
    <message>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <source>The planned job</source>
        <translation>计划任务</translation>
    </message>
    <message>
        <source>Enter the figures and choose a GPU type.</source>
        <translation>请输入数字并选择 GPU 型号。</translation>
    </message>
    <message>
        <source>Your last %1 days</source>
        <translation>您最近 %1 天</translation>
    </message>
    <message>
        <source>No compute in the last %1 days.</source>
        <translation>最近 %1 天没有计算用量。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::CostPreview</name>
    <message>
        <source>&lt;b&gt;Running:&lt;/b&gt; %1 per hour, %2 per day (%3 × %4 per card-hour), billed per second.</source>
        <extracomment>%3 cards × %4 per card-hour</extracomment>
        <translation>&lt;b&gt;运行时：&lt;/b&gt;每小时 %1，每天 %2（%3 × 每卡时 %4），按秒计费。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stopped:&lt;/b&gt; its %1 GiB disk is billed at %2 per GiB-hour: %3 per hour, %4 per day.</source>
        <translation>&lt;b&gt;停止时：&lt;/b&gt;其 %1 GiB 磁盘按每 GiB 小时 %2 计费：每小时 %3，每天 %4。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stopped:&lt;/b&gt; its %1 GiB disk costs nothing (the provider&apos;s storage price is %2 per GiB-hour).</source>
        <translation>&lt;b&gt;停止时：&lt;/b&gt;其 %1 GiB 磁盘不收费（服务商的存储价格为每 GiB 小时 %2）。</translation>
    </message>
    <message>
        <source>Your balance of %1 lasts %2 at %3 (with what already runs).</source>
        <translation>按 %3 计算（含已在运行的实例），您的余额 %1 可用 %2。</translation>
    </message>
    <message>
        <source>Stopped, it lasts %1.</source>
        <translation>停止后可用 %1。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Running:&lt;/b&gt; %1 per hour, %2 per day (one MIG slice %3, %4/%5 of the card&apos;s SMs), billed per second.</source>
        <extracomment>%3 a MIG profile (&quot;3g.40gb&quot;), %4/%5 its share of the card&apos;s SMs</extracomment>
        <translation>&lt;b&gt;运行时：&lt;/b&gt;每小时 %1，每天 %2（一个 MIG 切片 %3，占该卡 %4/%5 的 SM），按秒计费。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::Format</name>
    <message>
        <source>%1/h</source>
        <translation>%1/小时</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n min</source>
        <translation>
            <numerusform>%n 分钟</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Creating</source>
        <translation>创建中</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>停止中</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Terminated</source>
        <translation>已销毁</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>image</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>container</source>
        <translation>容器</translation>
    </message>
    <message>
        <source>sshd</source>
        <translation>sshd</translation>
    </message>
    <message>
        <source>SSH ready</source>
        <translation>SSH 就绪</translation>
    </message>
    <message>
        <source>/workspace</source>
        <translation>/workspace</translation>
    </message>
    <message>
        <source>the container&apos;s own disk</source>
        <translation>容器自身的磁盘</translation>
    </message>
    <message>
        <source>the SSH host key</source>
        <translation>SSH 主机密钥</translation>
    </message>
    <message>
        <source>the SSH port</source>
        <translation>SSH 端口</translation>
    </message>
    <message>
        <source>the GPU cards</source>
        <translation>GPU 卡</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>%1 answers</source>
        <translation>%1 已响应</translation>
    </message>
    <message>
        <source>&lt; %1</source>
        <translation>&lt; %1</translation>
    </message>
    <message>
        <source>&gt; %1</source>
        <translation>&gt; %1</translation>
    </message>
    <message>
        <source>%1/GiB-h</source>
        <extracomment>a storage price: yuan per GiB of disk per hour</extracomment>
        <translation>%1/GiB·小时</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message numerus="yes">
        <source>%n h</source>
        <translation>
            <numerusform>%n 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n d</source>
        <translation>
            <numerusform>%n 天</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ago</source>
        <extracomment>%1 is &quot;3 min&quot;, &quot;5 h&quot; or &quot;2 d&quot;</extracomment>
        <translation>%1前</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>%1后</translation>
    </message>
    <message>
        <source>Times in %1 (the provider&apos;s zone)</source>
        <translation>时间均为 %1（服务商的时区）</translation>
    </message>
    <message>
        <source>Times in %1 (the provider states no zone)</source>
        <translation>时间均为 %1（服务商未说明时区）</translation>
    </message>
    <message>
        <source>hardware checked</source>
        <translation>硬件已检查</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::GpuSlicePicker</name>
    <message>
        <source>&amp;Whole card</source>
        <translation>整卡(&amp;W)</translation>
    </message>
    <message>
        <source>MIG &amp;slice:</source>
        <translation>MIG 切片(&amp;S)：</translation>
    </message>
    <message>
        <source>MIG slice of the card</source>
        <translation>该卡的 MIG 切片</translation>
    </message>
    <message>
        <source>Rent:</source>
        <translation>租用：</translation>
    </message>
    <message>
        <source>or MIG slices from %1</source>
        <extracomment>a card also rented in MIG slices, from the cheapest slice&apos;s price per hour</extracomment>
        <translation>或 MIG 切片，%1 起</translation>
    </message>
    <message>
        <source>%1  ·  %2 GiB VRAM  ·  %3/%4 of the SMs  ·  %5  ·  %6 free</source>
        <extracomment>one MIG slice: profile, VRAM, share of the card&apos;s SMs, price per hour, free count</extracomment>
        <translation>%1  ·  %2 GiB 显存  ·  %3/%4 的 SM  ·  %5  ·  %6 个空闲</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::HomePage</name>
    <message>
        <source>No hosts yet</source>
        <translation>还没有主机</translation>
    </message>
    <message>
        <source>Launch a GPU host: pick a card and an image, and it is ready for SSH within seconds. The launch dialog shows what it costs per hour before you confirm.</source>
        <translation>启动一台 GPU 主机：选择显卡和镜像，几秒钟内即可通过 SSH 登录。确认之前，启动对话框会显示每小时的费用。</translation>
    </message>
    <message>
        <source>Launch a host…</source>
        <translation>启动主机…</translation>
    </message>
    <message>
        <source>Hosts: %1 · running: %2</source>
        <translation>主机：%1 · 运行中：%2</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::HostCard</name>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>Cost so far</source>
        <translation>累计费用</translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation>终端</translation>
    </message>
    <message>
        <source>Open a terminal on this host</source>
        <translation>在这台主机上打开终端</translation>
    </message>
    <message>
        <source>Open the host&apos;s app in the browser</source>
        <translation>在浏览器中打开这台主机的应用</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop this host (asks first)</source>
        <translation>停止这台主机（会先询问）</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>Start this host again (asks first)</source>
        <translation>再次启动这台主机（会先询问）</translation>
    </message>
    <message>
        <source>GPU utilisation over the last minute</source>
        <translation>最近一分钟的 GPU 利用率</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::ImagePreparation</name>
    <message>
        <source>Starting the image builder…</source>
        <translation>正在启动镜像构建程序…</translation>
    </message>
    <message>
        <source>Estimating the time left…</source>
        <translation>正在估算剩余时间…</translation>
    </message>
    <message>
        <source>%1 (image %2 of %3): step %4 of %5 — %6</source>
        <translation>%1（第 %2 个镜像，共 %3 个）：第 %4 步，共 %5 步 — %6</translation>
    </message>
    <message>
        <source>%1 (image %2 of %3): %4</source>
        <translation>%1（第 %2 个镜像，共 %3 个）：%4</translation>
    </message>
    <message>
        <source>About %1 left</source>
        <translation>大约还需 %1</translation>
    </message>
    <message>
        <source>Problem — %1: %2</source>
        <translation>问题 — %1：%2</translation>
    </message>
    <message>
        <source>Warning — %1: %2</source>
        <translation>警告 — %1：%2</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the fix, to paste it into a terminal</source>
        <translation>复制修复命令，以便粘贴到终端中</translation>
    </message>
    <message>
        <source>Preparing the sandbox&apos;s images: %1. This happens once on this computer.</source>
        <translation>正在准备沙盒的镜像：%1。在这台计算机上只需进行一次。</translation>
    </message>
    <message>
        <source>These images of the sandbox are not built yet: %1. Hosts need them; building them takes a while, once, and base comes first.</source>
        <translation>沙盒的这些镜像尚未构建：%1。主机需要它们；构建需要一些时间，只需一次，且 base 最先构建。</translation>
    </message>
    <message>
        <source>The sandbox&apos;s images are ready.</source>
        <translation>沙盒的镜像已就绪。</translation>
    </message>
    <message>
        <source>base is ready: you can connect and launch a base host now; the others go on building.</source>
        <translation>base 已就绪：现在即可连接并启动 base 主机；其他镜像继续构建。</translation>
    </message>
    <message>
        <source>Sandbox images and this computer</source>
        <translation>沙盒镜像与这台计算机</translation>
    </message>
    <message>
        <source>Show log</source>
        <translation>显示日志</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Prepare images</source>
        <translation>准备镜像</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::InstanceActions</name>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Stop “%1”?</source>
        <translation>停止“%1”？</translation>
    </message>
    <message>
        <source>Start “%1” again?</source>
        <translation>重新启动“%1”？</translation>
    </message>
    <message>
        <source>Terminate “%1” for good?</source>
        <translation>永久销毁“%1”？</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>Terminate</source>
        <translation>销毁</translation>
    </message>
    <message>
        <source>/workspace is kept.</source>
        <translation>/workspace 会保留。</translation>
    </message>
    <message>
        <source>Kept while stopped: %1.</source>
        <translation>停止期间保留：%1。</translation>
    </message>
    <message>
        <source>Released: %1 (a later start needs free cards again).</source>
        <translation>释放：%1（之后再启动需要重新有空闲卡）。</translation>
    </message>
    <message>
        <source>Billing of %1 stops the moment you stop.</source>
        <translation>停止的那一刻起，%1 的计费即停止。</translation>
    </message>
    <message>
        <source>Nothing is billed while it is stopped.</source>
        <translation>停止期间不产生任何费用。</translation>
    </message>
    <message>
        <source>Still billed while stopped: %1.</source>
        <translation>停止期间仍计费：%1。</translation>
    </message>
    <message>
        <source>Billing starts again at %1 once it is running.</source>
        <translation>运行后重新按 %1 计费。</translation>
    </message>
    <message>
        <source>/workspace is as you left it.</source>
        <translation>/workspace 保持您离开时的样子。</translation>
    </message>
    <message>
        <source>Terminate deletes /workspace: its data cannot be recovered.</source>
        <translation>销毁会删除 /workspace：其中的数据无法恢复。</translation>
    </message>
    <message>
        <source>Deleted: %1.</source>
        <translation>删除：%1。</translation>
    </message>
    <message>
        <source>Billing ends for good; the cost so far stays on your bill.</source>
        <translation>计费永久结束；已产生的费用保留在账单中。</translation>
    </message>
    <message>
        <source>The provider promises to keep no data across a stop.</source>
        <translation>服务商不承诺在停止后保留任何数据。</translation>
    </message>
    <message>
        <source>Its %1 GiB disk costs %2 per hour while stopped (%3 per GiB-hour).</source>
        <translation>停止期间，其 %1 GiB 磁盘每小时收费 %2（每 GiB 小时 %3）。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::InstanceDetails</name>
    <message>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>SSH</source>
        <translation>SSH</translation>
    </message>
    <message>
        <source>Host key</source>
        <translation>主机密钥</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>GPU cards</source>
        <translation>GPU 卡</translation>
    </message>
    <message>
        <source>Datasets</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>While stopped</source>
        <translation>停止期间</translation>
    </message>
    <message>
        <source>Stop and terminate</source>
        <translation>停止与终止</translation>
    </message>
    <message>
        <source>Apps</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Select an instance in the list to see how its launch went, its SSH address and host key, its resources and datasets, and what stopping it keeps and costs.</source>
        <translation>在列表中选择一个实例，即可查看它的启动过程、SSH 地址与主机密钥、资源与数据集，以及停止后保留什么、费用多少。</translation>
    </message>
    <message>
        <source>No instance selected</source>
        <translation>未选择实例</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Instance name</source>
        <translation>实例名称</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>not known until SSH is ready</source>
        <translation>SSH 就绪后才可知</translation>
    </message>
    <message>
        <source>This image serves no web apps.</source>
        <translation>此镜像不提供网页应用。</translation>
    </message>
    <message>
        <source>%1 (port %2)</source>
        <translation>%1（端口 %2）</translation>
    </message>
    <message>
        <source>%1: status</source>
        <translation>%1：状态</translation>
    </message>
    <message>
        <source>Open in browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <source>Open %1 in the browser</source>
        <translation>在浏览器中打开 %1</translation>
    </message>
    <message>
        <source>Through an SSH forward to port %1 in the instance</source>
        <translation>通过 SSH 转发到实例内的端口 %1</translation>
    </message>
    <message>
        <source>not launched yet</source>
        <translation>尚未启动</translation>
    </message>
    <message>
        <source>requested at %1</source>
        <translation>请求于 %1</translation>
    </message>
    <message>
        <source>%1: %2 after the request</source>
        <translation>%1：请求后 %2</translation>
    </message>
    <message>
        <source>waiting for the next stage…</source>
        <translation>正在等待下一阶段…</translation>
    </message>
    <message>
        <source>not reachable yet</source>
        <translation>尚不可连接</translation>
    </message>
    <message>
        <source>%1 CPUs</source>
        <translation>%1 个 CPU</translation>
    </message>
    <message>
        <source>%1 GiB memory</source>
        <translation>%1 GiB 内存</translation>
    </message>
    <message>
        <source>%1 GiB disk</source>
        <translation>%1 GiB 磁盘</translation>
    </message>
    <message>
        <source>not reported by the provider</source>
        <translation>提供方未报告</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1 (cards %2)</source>
        <translation>%1（卡 %2）</translation>
    </message>
    <message>
        <source>none mounted</source>
        <translation>未挂载</translation>
    </message>
    <message>
        <source>%1 at /datasets/%1 (read-only)</source>
        <translation>%1 位于 /datasets/%1（只读）</translation>
    </message>
    <message>
        <source>%1 while running, billed now</source>
        <translation>运行时 %1，当前正在计费</translation>
    </message>
    <message>
        <source>%1 while running, not billed now</source>
        <translation>运行时 %1，当前未计费</translation>
    </message>
    <message>
        <source>nothing is billed while it is stopped</source>
        <translation>停止期间不计费</translation>
    </message>
    <message>
        <source>%1 for the %2 GiB kept (%3 per GiB-hour)</source>
        <translation>保留的 %2 GiB：%1（每 GiB·小时 %3）</translation>
    </message>
    <message>
        <source>Stop keeps nothing.</source>
        <translation>停止时不保留任何内容。</translation>
    </message>
    <message>
        <source>Stop keeps %1.</source>
        <translation>停止时保留%1。</translation>
    </message>
    <message>
        <source>It releases %1.</source>
        <translation>并释放%1。</translation>
    </message>
    <message>
        <source>Terminate has nothing kept to delete.</source>
        <translation>终止时没有需要删除的保留内容。</translation>
    </message>
    <message>
        <source>Terminate deletes %1.</source>
        <translation>终止时删除%1。</translation>
    </message>
    <message>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>not answering yet</source>
        <translation>尚未响应</translation>
    </message>
    <message>
        <source>answers (since %1 after the request)</source>
        <translation>已响应（请求后 %1 起）</translation>
    </message>
    <message>
        <source>answers</source>
        <translation>已响应</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Stop time</source>
        <translation>停止时间</translation>
    </message>
    <message>
        <source>Interruptible: may be stopped; restarts when cards are free</source>
        <translation>可中断：可能被停止；有空闲显卡时自动重启</translation>
    </message>
    <message>
        <source>Interruptible: the provider may stop it</source>
        <translation>可中断：服务商可能停止它</translation>
    </message>
    <message>
        <source>Hardware check</source>
        <translation>硬件检查</translation>
    </message>
    <message>
        <source>not yet: the box is checked once it answers, before billing</source>
        <translation>尚未进行：主机应答后、计费前检查</translation>
    </message>
    <message>
        <source>not checked</source>
        <translation>未检查</translation>
    </message>
    <message>
        <source>failed, not billed:
%1</source>
        <translation>未通过，未计费：
%1</translation>
    </message>
    <message>
        <source>%1 × %2, %3 GiB each</source>
        <translation>%1 × %2，每张 %3 GiB</translation>
    </message>
    <message>
        <source>/workspace %1 GiB</source>
        <translation>/workspace %1 GiB</translation>
    </message>
    <message>
        <source>passed: the box has what was ordered (%1); billed from then on</source>
        <translation>通过：主机配置与订单一致（%1）；自此开始计费</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::InstanceTableModel</name>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 · SSH ready in %2</source>
        <translation>%1 · SSH 就绪用时 %2</translation>
    </message>
    <message>
        <source>%1 · balance ran out</source>
        <translation>%1 · 余额已用完</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Cost so far</source>
        <translation>累计费用</translation>
    </message>
    <message>
        <source>GPU utilisation now: %1%</source>
        <translation>当前 GPU 使用率：%1%</translation>
    </message>
    <message>
        <source>GPU use (1 min)</source>
        <translation>GPU 使用率（1 分钟）</translation>
    </message>
    <message>
        <source>Launched %1 (%2)</source>
        <extracomment>when a host was launched: &quot;3 min ago (2026-12-06 13:54:14)&quot;</extracomment>
        <translation>启动于%1（%2）</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::InstancesPage</name>
    <message>
        <source>Instances</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>No instances yet</source>
        <translation>还没有实例</translation>
    </message>
    <message>
        <source>An instance is a GPU host you rent by the second. Launch one, then open its terminal with a double-click; stopped instances stay listed here.</source>
        <translation>实例是按秒租用的 GPU 主机。启动一个，然后双击打开它的终端；已停止的实例也会留在这里。</translation>
    </message>
    <message>
        <source>Launch an instance…</source>
        <translation>启动实例…</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::KeysPage</name>
    <message>
        <source>not uploaded</source>
        <translation>未上传</translation>
    </message>
    <message>
        <source>uploaded as “%1”</source>
        <translation>已上传为“%1”</translation>
    </message>
    <message>
        <source>Generating an ed25519 key…</source>
        <translation>正在生成 ed25519 密钥…</translation>
    </message>
    <message>
        <source>Generated %1. Upload it to launch instances with it.</source>
        <translation>已生成 %1。上传后即可用它启动实例。</translation>
    </message>
    <message>
        <source>Import a public key</source>
        <translation>导入公钥</translation>
    </message>
    <message>
        <source>Public keys (*.pub)</source>
        <translation>公钥 (*.pub)</translation>
    </message>
    <message>
        <source>Imported %1.</source>
        <translation>已导入 %1。</translation>
    </message>
    <message>
        <source>Uploading…</source>
        <translation>正在上传…</translation>
    </message>
    <message>
        <source>Uploaded as “%1”: new instances can be launched with it.</source>
        <translation>已上传为“%1”：新实例可以使用它启动。</translation>
    </message>
    <message>
        <source>Remove key</source>
        <translation>移除密钥</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Removed %1 from this computer (the provider keeps its copy).</source>
        <translation>已从本机移除 %1（服务商仍保留其副本）。</translation>
    </message>
    <message>
        <source>No SSH keys on this computer yet</source>
        <translation>这台电脑上还没有 SSH 密钥</translation>
    </message>
    <message>
        <source>The terminal logs in to an instance with a key kept here; the provider only ever gets its public half. Generate one below (a name is enough), or import a key you already have.</source>
        <translation>终端用保存在这里的密钥登录实例；提供商只会拿到它的公钥部分。在下方生成一个（起个名字就够了），或导入你已有的密钥。</translation>
    </message>
    <message>
        <source>Import from ~/.ssh…</source>
        <translation>从 ~/.ssh 导入…</translation>
    </message>
    <message>
        <source>Instances that accept only this key can no longer be reached from here.</source>
        <translation>只接受此密钥的实例将无法再从这里访问。</translation>
    </message>
    <message>
        <source>Key: %1

A key CardHour generated is deleted for good; an imported key stays in ~/.ssh.</source>
        <translation>密钥：%1

CardHour 生成的密钥会被永久删除；导入的密钥仍保留在 ~/.ssh 中。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::LaunchDialog</name>
    <message>
        <source>Loading the catalog…</source>
        <translation>正在加载目录…</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>Asking the provider…</source>
        <translation>正在请求服务商…</translation>
    </message>
    <message>
        <source>Not launched: your balance does not cover this instance. %1</source>
        <translation>未启动：您的余额不足以支付此实例。%1</translation>
    </message>
    <message>
        <source>Not launched: %1 Choose fewer cards or another GPU type.</source>
        <translation>未启动：%1 请选择更少的卡数或其他 GPU 型号。</translation>
    </message>
    <message>
        <source>%1 (not enough free)</source>
        <translation>%1（空闲不足）</translation>
    </message>
    <message>
        <source>simulated</source>
        <translation>模拟卡</translation>
    </message>
    <message>
        <source>real GPU</source>
        <translation>真实 GPU</translation>
    </message>
    <message>
        <source>%1 GiB VRAM</source>
        <translation>%1 GiB 显存</translation>
    </message>
    <message>
        <source>%1 per card-hour</source>
        <translation>每卡时 %1</translation>
    </message>
    <message>
        <source>%1 of %2 free</source>
        <extracomment>free cards of this type out of all the provider lends</extracomment>
        <translation>%2 张中 %1 张空闲</translation>
    </message>
    <message>
        <source>%1, %2, %3, %4, %5</source>
        <extracomment>how a screen reader says one GPU card: name, memory, price, free cards, kind</extracomment>
        <translation>%1，%2，%3，%4，%5</translation>
    </message>
    <message>
        <source>%1   ·   %2   ·   %3, files: %4</source>
        <extracomment>a dataset: name, where it is mounted, size, number of files</extracomment>
        <translation>%1   ·   %2   ·   %3，文件数：%4</translation>
    </message>
    <message>
        <source>its folder is missing on the provider</source>
        <translation>服务商处缺少其文件夹</translation>
    </message>
    <message>
        <source>You have no SSH key yet: Launch creates one on this computer (ed25519, in %1), uploads it and installs it on this host. Or choose Manage SSH keys to import your own.</source>
        <translation>您还没有 SSH 密钥：点击“启动”会在本机创建一个（ed25519，位于 %1），上传并安装到此主机。也可以在“管理 SSH 密钥”中导入您自己的密钥。</translation>
    </message>
    <message>
        <source>Creating an SSH key for you…</source>
        <translation>正在为您创建 SSH 密钥…</translation>
    </message>
    <message>
        <source>Not launched: no SSH key could be created. %1</source>
        <translation>未启动：无法创建 SSH 密钥。%1</translation>
    </message>
    <message>
        <source>Uploading your new SSH key…</source>
        <translation>正在上传您的新 SSH 密钥…</translation>
    </message>
    <message>
        <source>Not launched: your new SSH key could not be uploaded. %1</source>
        <translation>未启动：无法上传您的新 SSH 密钥。%1</translation>
    </message>
    <message>
        <source>its passphrase is in your keychain</source>
        <translation>其口令保存在您的钥匙串中</translation>
    </message>
    <message>
        <source>without a passphrase, as there is no keychain</source>
        <translation>没有钥匙串，因此不设口令</translation>
    </message>
    <message>
        <source>Created the SSH key “%1” in %2 (%3), uploaded it and ticked it.</source>
        <translation>已在 %2 创建 SSH 密钥“%1”（%3），已上传并勾选。</translation>
    </message>
    <message>
        <source>Stop by itself</source>
        <translation>自动停止</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::LedgerModel</name>
    <message>
        <source>Trial credit</source>
        <translation>试用额度</translation>
    </message>
    <message>
        <source>Top-up</source>
        <translation>充值</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>Balance after</source>
        <translation>变动后余额</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::LedgerView</name>
    <message>
        <source>The ledger could not be loaded: %1</source>
        <translation>无法加载账目：%1</translation>
    </message>
    <message>
        <source>Postings: %1</source>
        <translation>账目：%1 条</translation>
    </message>
    <message>
        <source>Postings: %1 of %2 shown</source>
        <translation>账目：显示 %1 条，共 %2 条</translation>
    </message>
    <message>
        <source>Export ledger</source>
        <translation>导出账目</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Exported to %1 (rows: %2).</source>
        <translation>已导出到 %1（共 %2 行）。</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <source>All instances</source>
        <translation>全部实例</translation>
    </message>
    <message>
        <source>Search descriptions, kinds, instances</source>
        <translation>搜索说明、类型、实例</translation>
    </message>
    <message>
        <source>From</source>
        <translation>起始</translation>
    </message>
    <message>
        <source>To</source>
        <translation>截止</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>The ledger could not be written to %1.</source>
        <translation>无法将账目写入 %1。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::MainWindow</name>
    <message>
        <source>The balance has run out: the provider stops your instances.</source>
        <translation>余额已用完：服务商将停止您的实例。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>This translation could not be loaded.</source>
        <translation>无法加载此翻译。</translation>
    </message>
    <message>
        <source>CardHour — %1</source>
        <translation>CardHour — %1</translation>
    </message>
    <message>
        <source>CardHour</source>
        <translation>CardHour</translation>
    </message>
    <message>
        <source>Logged in as %1</source>
        <translation>已登录：%1</translation>
    </message>
    <message>
        <source>Connected to %1</source>
        <translation>已连接到 %1</translation>
    </message>
    <message>
        <source>SSH</source>
        <translation>SSH</translation>
    </message>
    <message>
        <source>%1 (port %2)</source>
        <translation>%1（端口 %2）</translation>
    </message>
    <message>
        <source>“%1” is not running yet.</source>
        <translation>“%1”尚未运行。</translation>
    </message>
    <message>
        <source>Upload to /workspace</source>
        <translation>上传到 /workspace</translation>
    </message>
    <message>
        <source>The terminal is not connected.</source>
        <translation>终端未连接。</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>File or folder on the instance:</source>
        <translation>实例上的文件或文件夹：</translation>
    </message>
    <message>
        <source>Save into folder</source>
        <translation>保存到文件夹</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>页面</translation>
    </message>
    <message>
        <source>Restoring into %1…</source>
        <translation>正在恢复到 %1…</translation>
    </message>
    <message>
        <source>it was started with --runtime inprocess</source>
        <translation>它以 --runtime inprocess 启动</translation>
    </message>
    <message>
        <source>Hosts here run without containers: they go through their states and are billed, but have no SSH and no terminal. Why: %1.</source>
        <translation>这里的主机不在容器中运行：它们会经历各个状态并计费，但没有 SSH，也没有终端。原因：%1。</translation>
    </message>
    <message>
        <source>CardHour Sandbox on this computer (%1)</source>
        <translation>本机上的 CardHour 沙盒（%1）</translation>
    </message>
    <message>
        <source>Launching %1…</source>
        <translation>正在启动 %1…</translation>
    </message>
    <message>
        <source>“%1” is running.</source>
        <translation>“%1”正在运行。</translation>
    </message>
    <message>
        <source>“%1” did not start: it is %2.</source>
        <translation>“%1”未能启动：它处于%2状态。</translation>
    </message>
    <message>
        <source>“%1” did not start: %2</source>
        <translation>“%1”未能启动：%2</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::MetricsChart</name>
    <message>
        <source>Last 5 min</source>
        <translation>最近 5 分钟</translation>
    </message>
    <message>
        <source>Last 15 min</source>
        <translation>最近 15 分钟</translation>
    </message>
    <message>
        <source>Last 60 min</source>
        <translation>最近 60 分钟</translation>
    </message>
    <message>
        <source>GPU utilisation</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Select an instance to see its GPUs.</source>
        <translation>选择一个实例以查看其 GPU。</translation>
    </message>
    <message>
        <source>Measured while the instance runs.</source>
        <translation>实例运行时才有测量数据。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::ModelLibrarySection</name>
    <message>
        <source>The model library could not be loaded: %1</source>
        <translation>无法加载模型库：%1</translation>
    </message>
    <message>
        <source>yours (private)</source>
        <translation>您的（私有）</translation>
    </message>
    <message>
        <source>public</source>
        <translation>公共</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>%1 per 30-day month</source>
        <translation>每 30 天 %1</translation>
    </message>
    <message>
        <source>free</source>
        <translation>免费</translation>
    </message>
    <message>
        <source>Billed %1 per hour while kept (%2 so far).</source>
        <translation>保留期间每小时计费 %1（迄今 %2）。</translation>
    </message>
    <message>
        <source>%1 Licence: %2.</source>
        <translation>%1 许可证：%2。</translation>
    </message>
    <message>
        <source>Public models belong to the provider.</source>
        <translation>公共模型属于服务商。</translation>
    </message>
    <message>
        <source>Delete the model “%1” for good?</source>
        <translation>永久删除模型“%1”？</translation>
    </message>
    <message>
        <source>Its file (%1) is deleted from the provider and its storage fee of %2 per 30-day month stops.</source>
        <translation>其文件（%1）将从服务商处删除，每 30 天 %2 的存储费随之停止。</translation>
    </message>
    <message>
        <source>Delete model</source>
        <translation>删除模型</translation>
    </message>
    <message>
        <source>“%1” (%2)</source>
        <translation>“%1”（%2）</translation>
    </message>
    <message>
        <source>“%1” is kept because it is mounted by %2. A stopped host mounts its models again when it starts, so terminate the hosts that use it first (Instances page), then delete the model.</source>
        <translation>“%1”已保留，因为 %2 挂载了它。已停止的主机在启动时会再次挂载其模型，因此请先终止使用它的主机（实例页面），再删除该模型。</translation>
    </message>
    <message>
        <source>Deleting “%1”…</source>
        <translation>正在删除“%1”…</translation>
    </message>
    <message>
        <source>“%1” was deleted; its storage fee has stopped.</source>
        <translation>“%1”已删除；其存储费已停止。</translation>
    </message>
    <message>
        <source>“%1” was not deleted: %2</source>
        <translation>“%1”未被删除：%2</translation>
    </message>
    <message>
        <source>Model not deleted</source>
        <translation>模型未删除</translation>
    </message>
    <message>
        <source>Models a host can read at its mount path when it is launched with them: the provider&apos;s public models, free, and your own private ones.</source>
        <translation>主机启动时选用的模型可在其挂载路径下读取：服务商的公共模型（免费）以及您自己的私有模型。</translation>
    </message>
    <message>
        <source>You have no private models yet. Choose a model file below and upload it: only your hosts can mount it.</source>
        <translation>您还没有私有模型。在下方选择一个模型文件并上传：只有您的主机能挂载它。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Languages</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Storage fee</source>
        <translation>存储费</translation>
    </message>
    <message>
        <source>Mounted at</source>
        <translation>挂载路径</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>&amp;Delete model…</source>
        <translation>删除模型(&amp;D)…</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::ModelMountPicker</name>
    <message>
        <source>%1 — %2, at %3 (%4, %5)</source>
        <extracomment>a model to mount: name, task, where the host sees it, size, public or private</extracomment>
        <translation>%1 — %2，位于 %3（%4，%5）</translation>
    </message>
    <message>
        <source>yours</source>
        <translation>您的</translation>
    </message>
    <message>
        <source>public</source>
        <translation>公共</translation>
    </message>
    <message>
        <source>The provider&apos;s model library is empty.</source>
        <translation>服务商的模型库为空。</translation>
    </message>
    <message>
        <source>The model library could not be loaded: %1</source>
        <translation>无法加载模型库：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Models to mount&lt;/b&gt; (read-only, at /models/NAME)</source>
        <translation>&lt;b&gt;要挂载的模型&lt;/b&gt;（只读，位于 /models/NAME）</translation>
    </message>
    <message>
        <source>Models to mount</source>
        <translation>要挂载的模型</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::ModelUploadPanel</name>
    <message>
        <source>Sending… %p%</source>
        <extracomment>the progress bar while a model file is sent; %p is the percentage</extracomment>
        <translation>正在发送… %p%</translation>
    </message>
    <message>
        <source>Carrying on the upload of “%1” from %2: the provider kept what it received before.</source>
        <translation>从 %2 处继续上传“%1”：服务商保留了之前收到的部分。</translation>
    </message>
    <message>
        <source>Sending “%1” to the provider…</source>
        <translation>正在将“%1”发送给服务商…</translation>
    </message>
    <message>
        <source>“%1” is in your library: the provider checked its SHA-256 (%2…). Hosts see it at %3; keeping it costs %4 per 30-day month.</source>
        <translation>“%1”已在您的模型库中：服务商已核对其 SHA-256（%2…）。主机在 %3 看到它；保留它每 30 天花费 %4。</translation>
    </message>
    <message>
        <source>Cancelled before anything was sent.</source>
        <translation>已在发送任何内容之前取消。</translation>
    </message>
    <message>
        <source>Cancelled. The provider keeps what it received: Resume carries on from there, Discard deletes it.</source>
        <translation>已取消。服务商保留已收到的部分：“继续”从那里接着上传，“丢弃”将其删除。</translation>
    </message>
    <message>
        <source>The unfinished upload was discarded.</source>
        <translation>未完成的上传已丢弃。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <extracomment>bytes of a model file the provider holds: &quot;1.0 MiB of 3.0 MiB&quot;</extracomment>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>not known here: Resume asks for it</source>
        <translation>本机未记录：“继续”时会询问</translation>
    </message>
    <message>
        <source>Model not uploaded</source>
        <translation>模型未上传</translation>
    </message>
    <message>
        <source>Model file to upload</source>
        <translation>要上传的模型文件</translation>
    </message>
    <message>
        <source>The file of the upload “%1”</source>
        <translation>上传“%1”对应的文件</translation>
    </message>
    <message>
        <source>Measuring the file… %p%</source>
        <extracomment>the progress bar while a model file&apos;s SHA-256 is computed; %p is the percentage</extracomment>
        <translation>正在计算文件校验和… %p%</translation>
    </message>
    <message>
        <source>Measuring “%1” (size and SHA-256) before it is sent…</source>
        <translation>发送前正在计算“%1”的大小和 SHA-256…</translation>
    </message>
    <message>
        <source>Upload a model file of your own: the provider checks its SHA-256, keeps it for your hosts only and bills its storage while it is kept.</source>
        <translation>上传您自己的模型文件：服务商会核对其 SHA-256，仅供您的主机使用，并在保留期间收取存储费。</translation>
    </message>
    <message>
        <source>Model &amp;file:</source>
        <translation>模型文件(&amp;F)：</translation>
    </message>
    <message>
        <source>B&amp;rowse…</source>
        <translation>浏览(&amp;R)…</translation>
    </message>
    <message>
        <source>Model na&amp;me:</source>
        <translation>模型名称(&amp;M)：</translation>
    </message>
    <message>
        <source>a-z, 0-9, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;</source>
        <translation>a-z、0-9、“.”、“_”和“-”</translation>
    </message>
    <message>
        <source>Model name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <source>&amp;Upload model</source>
        <translation>上传模型(&amp;U)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Unfinished uploads</source>
        <translation>未完成的上传</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>File on this computer</source>
        <translation>本机上的文件</translation>
    </message>
    <message>
        <source>Received by the provider</source>
        <translation>服务商已收到</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::PriceClassChooser</name>
    <message>
        <source>Price class</source>
        <translation>价格类别</translation>
    </message>
    <message>
        <source>On demand: %1 per card-hour, runs until you stop it</source>
        <translation>按需：每卡每小时 %1，一直运行到您停止</translation>
    </message>
    <message>
        <source>On demand</source>
        <translation>按需</translation>
    </message>
    <message>
        <source>Interruptible: %1 per card-hour</source>
        <translation>可中断：每卡每小时 %1</translation>
    </message>
    <message>
        <source>Interruptible</source>
        <translation>可中断</translation>
    </message>
    <message>
        <source>The provider may stop an interruptible host when an on-demand launch needs its cards (at once; the most recently started goes first), or otherwise with %1 of notice. /workspace is kept; the stopped disk is billed as any stopped host&apos;s.</source>
        <translation>按需启动需要显卡时，服务商可立即停止可中断主机（最近启动的最先停止）；其他情况下提前 %1 通知。/workspace 会保留；停止后的磁盘按停止主机的费率计费。</translation>
    </message>
    <message>
        <source>Start it again when cards of its type are free</source>
        <translation>该型号有空闲显卡时自动重新启动</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::SettingsDialog</name>
    <message>
        <source>The provider URL must start with http:// or https:// and name a host.</source>
        <translation>服务商地址必须以 http:// 或 https:// 开头，并包含主机名。</translation>
    </message>
    <message>
        <source>The second warning must come later than the first: fewer minutes.</source>
        <translation>第二次提醒必须晚于第一次：分钟数应更少。</translation>
    </message>
    <message>
        <source>A new provider URL is used the next time you connect.</source>
        <translation>新的服务商地址将在下次连接时使用。</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::SnapshotsModel</name>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Being taken</source>
        <translation>正在制作</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Failed · the provider restarted while it was taken</source>
        <translation>失败 · 制作期间服务商重启了</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Failed · %1</source>
        <translation>失败 · %1</translation>
    </message>
    <message>
        <source>Deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>the SSH keys it was given</source>
        <translation>为它配置的 SSH 密钥</translation>
    </message>
    <message>
        <source>the datasets it mounted</source>
        <translation>它挂载的数据集</translation>
    </message>
    <message>
        <source>memory and running processes</source>
        <translation>内存和正在运行的进程</translation>
    </message>
    <message>
        <source>Not kept (a restore is a new instance): %1</source>
        <translation>不保留（恢复得到的是一台新实例）：%1</translation>
    </message>
    <message>
        <source>%1 (gone)</source>
        <translation>%1（已不存在）</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>paused: balance empty</source>
        <translation>已暂停：余额为零</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>From instance</source>
        <translation>来源实例</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Storage fee</source>
        <translation>存储费</translation>
    </message>
    <message>
        <source>Billed since</source>
        <translation>计费起始</translation>
    </message>
    <message>
        <source>Storage cost so far</source>
        <translation>至今存储费用</translation>
    </message>
    <message>
        <source>Keeps</source>
        <translation>保留内容</translation>
    </message>
    <message>
        <source>taking, started %1</source>
        <translation>制作中，开始于%1</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::SnapshotsPage</name>
    <message>
        <source>The snapshots could not be loaded: %1</source>
        <translation>无法加载快照：%1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>No snapshots yet</source>
        <translation>还没有快照</translation>
    </message>
    <message>
        <source>Loading snapshots…</source>
        <translation>正在加载快照…</translation>
    </message>
    <message>
        <source>A snapshot keeps an instance&apos;s own disk and /workspace, so you can restore it later as a new instance, on any GPU type. Launch an instance first: a snapshot is taken from a running or stopped instance.</source>
        <translation>快照保存实例自身的磁盘和 /workspace，之后可在任意 GPU 型号上恢复为新实例。请先启动一台实例：快照取自运行中或已停止的实例。</translation>
    </message>
    <message>
        <source>A snapshot keeps an instance&apos;s own disk and /workspace, so you can restore it later as a new instance, on any GPU type. Choose an instance above and press Take snapshot, or snapshot the first one now:</source>
        <translation>快照保存实例自身的磁盘和 /workspace，之后可在任意 GPU 型号上恢复为新实例。在上方选择一台实例并点击“制作快照”，或立即为第一台实例制作快照：</translation>
    </message>
    <message>
        <source>Take a snapshot of “%1”</source>
        <translation>为“%1”制作快照</translation>
    </message>
    <message>
        <source>A snapshot is billed for its storage at %1 per GiB and hour while you keep it.</source>
        <translation>快照在保留期间按每 GiB 每小时 %1 收取存储费。</translation>
    </message>
    <message>
        <source>Select a snapshot to see what it keeps.</source>
        <translation>选择一个快照以查看它保留的内容。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; keeps %2 (%3).</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 保留了%2（%3）。</translation>
    </message>
    <message>
        <source>A restore is a new instance; not kept: %1.</source>
        <translation>恢复得到的是一台新实例；不保留：%1。</translation>
    </message>
    <message numerus="yes">
        <source>Storage is billed while it is kept: %n GiB at %1 per GiB-hour, %2.</source>
        <translation>
            <numerusform>保留期间按存储计费：%n GiB，每 GiB·小时 %1，%2。</numerusform>
        </translation>
    </message>
    <message>
        <source>It outlives its instance: terminating the instance does not delete it.</source>
        <translation>它独立于实例存在：终止实例不会删除它。</translation>
    </message>
    <message>
        <source>If the balance runs out the fee pauses and the snapshot is kept.</source>
        <translation>余额用完时暂停计费，快照仍会保留。</translation>
    </message>
    <message>
        <source>Asking the provider to snapshot “%1”…</source>
        <translation>正在请求服务商为“%1”制作快照…</translation>
    </message>
    <message>
        <source>A snapshot is billed for its storage and your balance is empty. Top up first.</source>
        <translation>快照需要支付存储费，而您的余额为零。请先充值。</translation>
    </message>
    <message>
        <source>No snapshot was taken of “%1”: %2</source>
        <translation>未能为“%1”制作快照：%2</translation>
    </message>
    <message>
        <source>Taking snapshot “%1” of “%2”; it can be restored once it is ready.</source>
        <translation>正在为“%2”制作快照“%1”；就绪后即可恢复。</translation>
    </message>
    <message>
        <source>Its storage fee of %1 stops now; it has cost %2 so far.</source>
        <translation>其存储费 %1 将立即停止；至今已花费 %2。</translation>
    </message>
    <message>
        <source>It is not billed now; it has cost %1 so far.</source>
        <translation>它目前未在计费；至今已花费 %1。</translation>
    </message>
    <message>
        <source>Delete snapshot</source>
        <translation>删除快照</translation>
    </message>
    <message>
        <source>“%1” is kept: instances restored from it still exist (%2).</source>
        <translation>“%1”已保留：仍有从它恢复的实例（%2）。</translation>
    </message>
    <message>
        <source>“%1” is kept: the instances restored from it still run from it (%2). Terminate them first, then delete the snapshot.</source>
        <translation>“%1”已保留：从它恢复的实例仍依赖它运行（%2）。请先终止这些实例，再删除快照。</translation>
    </message>
    <message>
        <source>Deleting “%1”…</source>
        <translation>正在删除“%1”…</translation>
    </message>
    <message>
        <source>“%1” was deleted; its storage fee has stopped.</source>
        <translation>“%1”已删除；其存储费已停止。</translation>
    </message>
    <message>
        <source>“%1” was not deleted: %2</source>
        <translation>“%1”未被删除：%2</translation>
    </message>
    <message>
        <source>Snapshot not deleted</source>
        <translation>快照未删除</translation>
    </message>
    <message>
        <source>“%1” is being restored as the new instance “%2”.</source>
        <translation>正在将“%1”恢复为新实例“%2”。</translation>
    </message>
    <message>
        <source>Its copy of %1 (%2) is deleted for good.</source>
        <translation>它保存的 %1（%2）副本将被永久删除。</translation>
    </message>
    <message>
        <source>Delete the snapshot “%1”?</source>
        <translation>删除快照“%1”？</translation>
    </message>
    <message>
        <source>Its copy of %1 cannot be restored afterwards.</source>
        <translation>删除后，它保存的 %1 副本将无法恢复。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::SnapshotsRestoreDialog</name>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; comes back as a new instance with %2 as they were when it was taken. Not kept: %3.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 将恢复为一台新实例，%2 与制作快照时一致。不保留：%3。</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Restore the snapshot</source>
        <translation>恢复此快照</translation>
    </message>
    <message>
        <source>Loading the catalog and your keys…</source>
        <translation>正在加载目录和您的密钥…</translation>
    </message>
    <message>
        <source>%1 · %2 per card-hour · free: %3</source>
        <extracomment>GPU type in the restore dialog: name, price per card-hour, free cards</extracomment>
        <translation>%1 · 每卡每小时 %2 · 空闲：%3</translation>
    </message>
    <message>
        <source>Your account has no SSH keys: the restored instance cannot be logged in to. Add a key on the Keys page first.</source>
        <translation>您的账户没有 SSH 密钥：将无法登录恢复出的实例。请先在“密钥”页面添加一个密钥。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cost:&lt;/b&gt; %1 per hour, %2 per day while it runs (%3 × %4 per card-hour).</source>
        <translation>&lt;b&gt;费用：&lt;/b&gt;运行时每小时 %1，每天 %2（%3 × 每卡每小时 %4）。</translation>
    </message>
    <message numerus="yes">
        <source>Only %n card(s) of this type are free now.</source>
        <translation>
            <numerusform>这种类型目前只有 %n 张卡空闲。</numerusform>
        </translation>
    </message>
    <message>
        <source>The snapshot stays and its storage fee of %1 goes on until you delete it.</source>
        <translation>快照会保留，其存储费 %1 持续计费，直到您删除它。</translation>
    </message>
    <message>
        <source>Asking the provider…</source>
        <translation>正在请求服务商…</translation>
    </message>
    <message>
        <source>Not restored: %1</source>
        <translation>未恢复：%1</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::SpendChart</name>
    <message>
        <source>No charges yet.</source>
        <translation>暂无扣费。</translation>
    </message>
    <message>
        <source>Spent in the periods shown: %1</source>
        <translation>所示时段内支出：%1</translation>
    </message>
    <message>
        <source>Per hour</source>
        <translation>按小时</translation>
    </message>
    <message>
        <source>Per day</source>
        <translation>按天</translation>
    </message>
    <message>
        <source>Spend over time</source>
        <translation>支出趋势</translation>
    </message>
    <message>
        <source>yuan</source>
        <translation>元</translation>
    </message>
    <message>
        <source>Spend</source>
        <translation>支出</translation>
    </message>
    <message>
        <source>Nothing spent yet</source>
        <translation>尚无花费</translation>
    </message>
    <message>
        <source>Compute, storage and snapshot charges show here, per hour or per day, as the provider posts them.</source>
        <translation>计算、存储和快照费用会在提供商记账后显示在这里，可按小时或按天查看。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::SpendingLimitsPanel</name>
    <message>
        <source>The spending limits could not be loaded: %1</source>
        <translation>无法加载消费限额：%1</translation>
    </message>
    <message>
        <source>The provider&apos;s spending limits have not been loaded yet.</source>
        <translation>尚未加载服务商的消费限额。</translation>
    </message>
    <message>
        <source>Days and months are counted in the provider&apos;s time zone, %1.</source>
        <translation>日和月按服务商的时区 %1 计算。</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 至 %2</translation>
    </message>
    <message>
        <source>since %1</source>
        <translation>自 %1 起</translation>
    </message>
    <message>
        <source>%1, no maximum</source>
        <translation>%1，无上限</translation>
    </message>
    <message>
        <source>%1 of %2 (%3.%4 %)</source>
        <translation>%1 / %2（%3.%4 %）</translation>
    </message>
    <message>
        <source>; alert amount reached</source>
        <translation>；已达到提醒金额</translation>
    </message>
    <message>
        <source>%1, %2: enter an amount in yuan (e.g. 50 or 12.50), or leave it empty for none.</source>
        <translation>%1，%2：请输入以元为单位的金额（例如 50 或 12.50），留空表示不设。</translation>
    </message>
    <message>
        <source>alert</source>
        <translation>提醒</translation>
    </message>
    <message>
        <source>maximum</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>%1: the alert amount is above the maximum.</source>
        <translation>%1：提醒金额高于上限。</translation>
    </message>
    <message>
        <source>Nothing to save.</source>
        <translation>没有需要保存的更改。</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>Saved. The provider applies the limits at once.</source>
        <translation>已保存。服务商立即执行这些限额。</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>This month</source>
        <translation>本月</translation>
    </message>
    <message>
        <source>In total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>期间</translation>
    </message>
    <message>
        <source>Spent</source>
        <translation>已花费</translation>
    </message>
    <message>
        <source>Alert at (yuan)</source>
        <translation>提醒金额（元）</translation>
    </message>
    <message>
        <source>Maximum (yuan)</source>
        <translation>上限（元）</translation>
    </message>
    <message>
        <source>From – to</source>
        <translation>起止</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Save limits</source>
        <translation>保存限额</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::SshActions</name>
    <message>
        <source>No terminal program was found. Copy the SSH command instead and paste it into your terminal.</source>
        <translation>未找到终端程序。请改为复制 SSH 命令，并粘贴到您的终端中。</translation>
    </message>
    <message>
        <source>%1 could not be started.</source>
        <translation>无法启动 %1。</translation>
    </message>
    <message>
        <source>Opened %1 with ssh to “%2”.</source>
        <translation>已用 %1 打开到“%2”的 ssh 连接。</translation>
    </message>
    <message>
        <source>Added to %1: connect with “ssh %2”.</source>
        <translation>已添加到 %1：用“ssh %2”连接。</translation>
    </message>
    <message>
        <source>Copied: %1</source>
        <translation>已复制：%1</translation>
    </message>
    <message>
        <source>That instance is no longer there.</source>
        <translation>该实例已不存在。</translation>
    </message>
    <message>
        <source>“%1” is not running.</source>
        <translation>“%1”未在运行。</translation>
    </message>
    <message>
        <source>“%1” has no app called “%2”.</source>
        <translation>“%1”没有名为“%2”的应用。</translation>
    </message>
    <message>
        <source>%1 is ready (through SSH).</source>
        <translation>%1 已就绪（通过 SSH）。</translation>
    </message>
    <message>
        <source>%1 opened in the browser (through SSH).</source>
        <translation>已在浏览器中打开 %1（通过 SSH）。</translation>
    </message>
    <message>
        <source>No browser opened for %1: %2</source>
        <translation>未能为 %1 打开浏览器：%2</translation>
    </message>
    <message>
        <source>ssh will ask for a passphrase</source>
        <translation>ssh 将询问密码短语</translation>
    </message>
    <message>
        <source>The key&apos;s passphrase is kept in your keychain, and the key could not be added to an ssh-agent.</source>
        <translation>该密钥的密码短语保存在您的钥匙串中，且该密钥无法加入 ssh-agent。</translation>
    </message>
    <message>
        <source>Start an ssh-agent (eval &quot;$(ssh-agent)&quot; in your shell, before CardHour starts) and try again.</source>
        <translation>请先启动 ssh-agent（在启动 CardHour 之前于 shell 中运行 eval &quot;$(ssh-agent)&quot;），然后重试。</translation>
    </message>
    <message>
        <source>Start an ssh-agent (eval &quot;$(ssh-agent)&quot; in your shell, before CardHour starts) and try again, or copy the passphrase and paste it when ssh asks for it.</source>
        <translation>请先启动 ssh-agent（在启动 CardHour 之前于 shell 中运行 eval &quot;$(ssh-agent)&quot;），然后重试；或复制密码短语，在 ssh 询问时粘贴。</translation>
    </message>
    <message>
        <source>Copy passphrase</source>
        <translation>复制密码短语</translation>
    </message>
    <message>
        <source>The key&apos;s passphrase is on the clipboard: paste it when ssh asks.</source>
        <translation>密钥的密码短语已复制到剪贴板：在 ssh 询问时粘贴。</translation>
    </message>
    <message>
        <source>Copy address</source>
        <translation>复制地址</translation>
    </message>
    <message>
        <source>The address of %1 is on the clipboard.</source>
        <translation>%1 的地址已复制到剪贴板。</translation>
    </message>
    <message>
        <source>Its key is in your ssh-agent now, so ssh in a terminal asks for no passphrase.</source>
        <translation>其密钥现已加入您的 ssh-agent，终端中的 ssh 不会再询问密码短语。</translation>
    </message>
    <message>
        <source>No browser could open %1</source>
        <translation>没有浏览器能打开 %1</translation>
    </message>
    <message>
        <source>Open this address yourself: it holds the app&apos;s token, and it works while CardHour runs.</source>
        <translation>请自行打开这个地址：它含有应用的令牌，在 CardHour 运行期间有效。</translation>
    </message>
    <message>
        <source>Opening %1 in the browser…</source>
        <translation>正在浏览器中打开 %1…</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::SshKeysDialog</name>
    <message>
        <source>SSH keys</source>
        <translation>SSH 密钥</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::StateStyle</name>
    <message>
        <source>Instance state: %1</source>
        <translation>实例状态：%1</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::StatementPanel</name>
    <message>
        <source>Postings in %1: %2</source>
        <translation>%1 的记账条目：%2</translation>
    </message>
    <message>
        <source>Export statement as PDF</source>
        <translation>将账单导出为 PDF</translation>
    </message>
    <message>
        <source>Export statement as CSV</source>
        <translation>将账单导出为 CSV</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation>已导出到 %1。</translation>
    </message>
    <message>
        <source>Export statement</source>
        <translation>导出账单</translation>
    </message>
    <message>
        <source>&amp;Month:</source>
        <translation>月份(&amp;M)：</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <source>By host</source>
        <translation>按主机</translation>
    </message>
    <message>
        <source>Postings</source>
        <translation>记账条目</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>Balance</source>
        <translation>余额</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Snapshots</source>
        <translation>快照</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>By snapshot</source>
        <translation>按快照</translation>
    </message>
    <message>
        <source>Snapshot</source>
        <translation>快照</translation>
    </message>
    <message>
        <source>Taken of</source>
        <translation>来源主机</translation>
    </message>
    <message>
        <source>Fees</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>The statement could not be written to %1.</source>
        <translation>无法将账单写入 %1。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::StatementPdf</name>
    <message>
        <source>Page %1</source>
        <translation>第 %1 页</translation>
    </message>
    <message>
        <source>en_GB</source>
        <comment>the locale of month names on statements</comment>
        <translation>zh_CN</translation>
    </message>
    <message>
        <source>MMMM yyyy</source>
        <comment>a statement&apos;s month</comment>
        <translation>yyyy年M月</translation>
    </message>
    <message>
        <source>Time zone: %1 (the provider&apos;s)</source>
        <translation>时区：%1（服务商的时区）</translation>
    </message>
    <message>
        <source>Time zone: %1 (the provider states none)</source>
        <translation>时区：%1（服务商未声明时区）</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Storage of stopped hosts</source>
        <translation>已停止主机的存储</translation>
    </message>
    <message>
        <source>Snapshots</source>
        <translation>快照</translation>
    </message>
    <message>
        <source>Credits</source>
        <translation>入账</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Opening balance</source>
        <translation>期初余额</translation>
    </message>
    <message>
        <source>Top-ups and trial credit</source>
        <translation>充值与试用额度</translation>
    </message>
    <message>
        <source>Total charges</source>
        <translation>费用合计</translation>
    </message>
    <message>
        <source>Closing balance</source>
        <translation>期末余额</translation>
    </message>
    <message>
        <source>CardHour statement, %1</source>
        <translation>CardHour 账单，%1</translation>
    </message>
    <message>
        <source>The PDF could not be started.</source>
        <translation>无法开始生成 PDF。</translation>
    </message>
    <message>
        <source>Amounts are the provider&apos;s ledger in exact micro-yuan.</source>
        <translation>金额取自服务商的账目，精确到微元。</translation>
    </message>
    <message>
        <source>Period: %1 to %2 (postings by the time they were made)</source>
        <translation>期间：%1 至 %2（按记账时间）</translation>
    </message>
    <message>
        <source>Postings: %1</source>
        <translation>记账条目：%1</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>汇总</translation>
    </message>
    <message>
        <source>By host</source>
        <translation>按主机</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>No host was charged in this month.</source>
        <translation>本月没有主机产生费用。</translation>
    </message>
    <message>
        <source>Postings</source>
        <translation>记账条目</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>Balance</source>
        <translation>余额</translation>
    </message>
    <message>
        <source>No postings in this month.</source>
        <translation>本月没有记账条目。</translation>
    </message>
    <message>
        <source>By snapshot</source>
        <translation>按快照</translation>
    </message>
    <message>
        <source>Snapshot</source>
        <translation>快照</translation>
    </message>
    <message>
        <source>Taken of</source>
        <translation>来源主机</translation>
    </message>
    <message>
        <source>Fees</source>
        <translation>费用</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::StopPolicyEditor</name>
    <message>
        <source>The stop time has passed: choose a later one.</source>
        <translation>停止时间已过：请选择更晚的时间。</translation>
    </message>
    <message>
        <source>at %1</source>
        <translation>于 %1</translation>
    </message>
    <message>
        <source>when it has cost %1</source>
        <translation>在花费达到 %1 时</translation>
    </message>
    <message numerus="yes">
        <source>when its cards stay under %1 % for %n min</source>
        <translation>
            <numerusform>在显卡利用率持续 %n 分钟低于 %1 % 时</numerusform>
        </translation>
    </message>
    <message>
        <source>Stops by itself %1.</source>
        <translation>将自动停止：%1。</translation>
    </message>
    <message>
        <source>No stop time</source>
        <translation>不按时间停止</translation>
    </message>
    <message>
        <source>Stop at</source>
        <translation>停止于</translation>
    </message>
    <message>
        <source>Stop after</source>
        <translation>运行后停止</translation>
    </message>
    <message>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <source>Stop when it has cost</source>
        <translation>花费达到后停止</translation>
    </message>
    <message>
        <source>Stop when idle: cards under</source>
        <translation>空闲时停止：显卡利用率低于</translation>
    </message>
    <message>
        <source>Utilisation of every card stays under this</source>
        <translation>每张显卡的利用率都低于此值</translation>
    </message>
    <message>
        <source>for </source>
        <translation>持续 </translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>The provider keeps these, also while this computer sleeps, and warns before an idle stop so that you can keep the host running. A running job counts as load; an open notebook tab with nothing running does not.</source>
        <translation>这些规则由提供商执行，这台电脑休眠时也照样有效；空闲停止前会先发出提醒，你可以选择继续运行。正在运行的任务算作负载；打开着但没有运行任何内容的笔记本页面不算。</translation>
    </message>
    <message numerus="yes">
        <source>when its cards stay under %1 % for %n min with no connection open</source>
        <translation>
            <numerusform>在显卡利用率持续 %n 分钟低于 %1 % 且没有打开的连接时</numerusform>
        </translation>
    </message>
    <message>
        <source>Only while no SSH session or app connection is open</source>
        <translation>仅在没有打开的 SSH 会话或应用连接时</translation>
    </message>
    <message>
        <source>An open terminal, file transfer or app tab then keeps the host running</source>
        <translation>这样，打开的终端、文件传输或应用标签页会让主机保持运行</translation>
    </message>
    <message>
        <source>Stop after: enter a number of hours from %1 to %2, e.g. %3.</source>
        <translation>运行后停止：请输入 %1 到 %2 之间的小时数，例如 %3。</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::StopText</name>
    <message>
        <source>a spending limit was reached</source>
        <translation>已达到消费限额</translation>
    </message>
    <message>
        <source>its stop time</source>
        <translation>已到设定的停止时间</translation>
    </message>
    <message>
        <source>its maximum cost</source>
        <translation>已达到费用上限</translation>
    </message>
    <message>
        <source>its cards stayed idle</source>
        <translation>其显卡一直空闲</translation>
    </message>
    <message>
        <source>the balance ran out</source>
        <translation>余额已用完</translation>
    </message>
    <message>
        <source>Stops at %1: %2</source>
        <translation>将于 %1 停止：%2</translation>
    </message>
    <message>
        <source>Stops at %1 (in %2): %3</source>
        <translation>将于 %1 停止（还剩 %2）：%3</translation>
    </message>
    <message>
        <source>the provider restarted</source>
        <translation>服务商已重启</translation>
    </message>
    <message>
        <source>its container stopped</source>
        <translation>其容器已停止</translation>
    </message>
    <message>
        <source>interrupted by the provider</source>
        <translation>被服务商中断</translation>
    </message>
    <message>
        <source>Interrupted at %1 (in %2): the provider needs its cards</source>
        <translation>将于 %1（%2后）被中断：服务商需要它的显卡</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::StopTimerRow</name>
    <message>
        <source>%1 no longer stops at a set time.</source>
        <translation>%1 不再在设定的时间停止。</translation>
    </message>
    <message>
        <source>%1 now stops at %2.</source>
        <translation>%1 现在将于 %2 停止。</translation>
    </message>
    <message>
        <source>The stop time was not changed: %1</source>
        <translation>停止时间未更改：%1</translation>
    </message>
    <message>
        <source>Stops at %1, kept by the provider.</source>
        <translation>将于 %1 停止，由服务商执行。</translation>
    </message>
    <message>
        <source>No stop time.</source>
        <translation>没有停止时间。</translation>
    </message>
    <message>
        <source>Move</source>
        <translation>改期</translation>
    </message>
    <message>
        <source>Set</source>
        <translation>设定</translation>
    </message>
    <message>
        <source>Stop the host at the time in the field</source>
        <translation>在框中的时间停止主机</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Keep it running without a stop time</source>
        <translation>不设停止时间，保持运行</translation>
    </message>
    <message>
        <source>Stop time</source>
        <translation>停止时间</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::StoragePage</name>
    <message>
        <source>Dataset not added</source>
        <translation>未添加数据集</translation>
    </message>
    <message>
        <source>Added the dataset “%1”.</source>
        <translation>已添加数据集“%1”。</translation>
    </message>
    <message>
        <source>The datasets could not be loaded: %1</source>
        <translation>无法加载数据集：%1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no: its folder is missing</source>
        <translation>否：其文件夹不存在</translation>
    </message>
    <message>
        <source>none of your hosts</source>
        <translation>您的主机均未挂载</translation>
    </message>
    <message>
        <source>No datasets yet</source>
        <translation>还没有数据集</translation>
    </message>
    <message>
        <source>Loading datasets…</source>
        <translation>正在加载数据集…</translation>
    </message>
    <message>
        <source>A dataset is a folder the provider shares read-only with the instances launched with it. Add a folder of this computer below.</source>
        <translation>数据集是服务商以只读方式共享给启动时选择了它的实例的文件夹。请在下方添加本机的一个文件夹。</translation>
    </message>
    <message>
        <source>A dataset is a folder the provider shares read-only with the instances launched with it. This provider offers none yet.</source>
        <translation>数据集是服务商以只读方式共享给启动时选择了它的实例的文件夹。此服务商目前尚未提供任何数据集。</translation>
    </message>
    <message>
        <source>Folder to share as a dataset</source>
        <translation>要作为数据集共享的文件夹</translation>
    </message>
    <message>
        <source>“%1” is not a folder.</source>
        <translation>“%1”不是文件夹。</translation>
    </message>
    <message>
        <source>Adding “%1” (the sandbox measures the folder first)…</source>
        <translation>正在添加“%1”（沙盒会先统计文件夹大小）…</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Mounted at</source>
        <translation>挂载路径</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件数</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>Mounted by</source>
        <translation>挂载的主机</translation>
    </message>
    <message>
        <source>Datasets</source>
        <translation>数据集</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::TerminalTab</name>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Connecting to “%1”…</source>
        <translation>正在连接“%1”…</translation>
    </message>
    <message>
        <source>“%1” is not running (%2): start it, then reconnect.</source>
        <translation>“%1”未在运行（%2）：请先启动，再重新连接。</translation>
    </message>
    <message>
        <source>There is no SSH key store.</source>
        <translation>没有 SSH 密钥库。</translation>
    </message>
    <message>
        <source>&amp;Reconnect</source>
        <translation>重新连接(&amp;R)</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::Theme</name>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::TopUpDialog</name>
    <message>
        <source>Enter an amount in yuan.</source>
        <translation>请输入金额（元）。</translation>
    </message>
    <message>
        <source>Write the amount as a number of yuan with at most two decimals, e.g. 12.50.</source>
        <translation>请以元为单位填写金额，最多两位小数，例如 12.50。</translation>
    </message>
    <message>
        <source>The smallest top-up is %1.</source>
        <translation>单次充值至少 %1。</translation>
    </message>
    <message>
        <source>The largest top-up is %1.</source>
        <translation>单次充值最多 %1。</translation>
    </message>
    <message>
        <source>%1 will be added to your balance.</source>
        <translation>将向余额中添加 %1。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>The provider refused the top-up: %1</source>
        <translation>服务商拒绝了充值：%1</translation>
    </message>
    <message>
        <source>Top &amp;up</source>
        <translation>充值(&amp;U)</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::TransferBar</name>
    <message>
        <source>Uploading %1 to %2…</source>
        <translation>正在上传 %1 到 %2…</translation>
    </message>
    <message>
        <source>Downloading %1…</source>
        <translation>正在下载 %1…</translation>
    </message>
    <message>
        <source>%1 %2: %3 of %4, %5/s</source>
        <extracomment>upload/download progress: file, bytes done / total, speed</extracomment>
        <translation>%1 %2：%3 / %4，%5/秒</translation>
    </message>
    <message>
        <source>Uploading</source>
        <translation>正在上传</translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation>正在下载</translation>
    </message>
    <message>
        <source>Uploaded %1 to %2 (%3 files, %4/s).</source>
        <translation>已上传 %1 到 %2（%3 个文件，%4/秒）。</translation>
    </message>
    <message>
        <source>Downloaded %1 to %2.</source>
        <translation>已下载 %1 到 %2。</translation>
    </message>
    <message>
        <source>Cancelled; the partial file resumes next time.</source>
        <translation>已取消；下次会从未完成的部分继续。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>cardhour::ui::TrayNotifier</name>
    <message>
        <source>Balance: %1</source>
        <translation>余额：%1</translation>
    </message>
    <message>
        <source>Spending %1</source>
        <translation>支出速度 %1</translation>
    </message>
    <message>
        <source>Nothing is billed now</source>
        <translation>当前没有计费</translation>
    </message>
    <message>
        <source>CardHour — %1, %2</source>
        <translation>CardHour — %1，%2</translation>
    </message>
    <message>
        <source>Runs out in %1</source>
        <translation>%1 后用完</translation>
    </message>
    <message>
        <source>CardHour</source>
        <translation>CardHour</translation>
    </message>
    <message>
        <source>Balance: unknown</source>
        <translation>余额：未知</translation>
    </message>
    <message>
        <source>Show CardHour</source>
        <translation>显示 CardHour</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Balance running low</source>
        <translation>余额不足</translation>
    </message>
    <message>
        <source>At %1 your balance lasts %2. Top up or stop instances to keep your work.</source>
        <translation>按 %1 的速度，余额还能用 %2。请充值或停止实例，以免丢失工作。</translation>
    </message>
    <message>
        <source>Instance failed</source>
        <translation>实例失败</translation>
    </message>
    <message>
        <source>%1 failed.</source>
        <translation>%1 已失败。</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 已失败：%2</translation>
    </message>
    <message>
        <source>Instance stopped by the provider</source>
        <translation>实例已被服务商停止</translation>
    </message>
    <message>
        <source>%1 was stopped by the provider.</source>
        <translation>%1 已被服务商停止。</translation>
    </message>
    <message>
        <source>%1 was stopped: %2.</source>
        <translation>%1 已停止：%2。</translation>
    </message>
    <message>
        <source>A host will stop</source>
        <translation>一台主机即将停止</translation>
    </message>
    <message>
        <source>Keep running %1</source>
        <translation>保持 %1 运行</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>CardHour: rent GPU hosts by the card-hour.</source>
        <translation>CardHour：按卡时租用 GPU 主机。</translation>
    </message>
    <message>
        <source>Connect to the provider at URL (also CARDHOUR_PROVIDER_URL).</source>
        <translation>连接到 URL 处的服务商（也可用 CARDHOUR_PROVIDER_URL）。</translation>
    </message>
    <message>
        <source>Start or attach to the local sandbox at once.</source>
        <translation>立即启动或连接本地沙盒。</translation>
    </message>
    <message>
        <source>Also trust the certificate authorities in FILE (PEM) for an https:// provider with a certificate of its own.</source>
        <translation>对于使用自有证书的 https:// 提供商，同时信任 FILE（PEM）中的证书颁发机构。</translation>
    </message>
    <message>
        <source>The cardhour-sim executable to start for the local sandbox (default: the one next to this program).</source>
        <translation>启动本地沙盒时使用的 cardhour-sim 可执行文件（默认：本程序旁边的那个）。</translation>
    </message>
</context>
</TS>
