<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
        <source>Connection refused: %1 presented the host key %2, but the provider says this instance's host key is %3. Someone may be intercepting the connection, or the address now belongs to another machine. CardHour does not connect to a host whose key does not match.</source>
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
    <name>LoginDialog</name>
    <message>
        <source>Log in to CardHour</source>
        <translation>登录 CardHour</translation>
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
        <source>Create a new account (new accounts get 10 yuan of trial credit)</source>
        <translation>创建新账户（新账户赠送 10 元试用额度）</translation>
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
        <source>The instance's SFTP service did not start: %1</source>
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
        <source>The instance's folder %1 holds a name that cannot be saved safely here: "%2" (%3). Nothing was downloaded.</source>
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
        <source>A snapshot is a copy of an instance's own disk and /workspace. Restore it as a new instance on any GPU type; you pay for its storage while you keep it.</source>
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
        <source>%1 does not accept your key %2 (%3): that key is missing from the host's authorized keys. Add it to the instance (Keys…) or connect with a key the instance was launched with.</source>
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
        <source>a-z, 0-9, '.', '_' and '-'</source>
        <translation>a-z、0-9、“.”、“_”和“-”</translation>
    </message>
    <message>
        <source>&amp;Add dataset</source>
        <translation>添加数据集(&amp;A)</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>The provider offers no model library yet; models will be listed here when it does.</source>
        <translation>服务商尚未提供模型库；提供后模型将列在此处。</translation>
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
    <name>cardhour::core::ProviderClient</name>
    <message>
        <source>CardHour does not use plain http:// with %1, which is not on this computer: your password and token would cross the network unencrypted, readable by anyone on the way. Use the provider's https:// address.</source>
        <translation>%1 不在本机上，CardHour 不会通过明文 http:// 与其通信：您的密码和令牌将以未加密形式在网络上传输，途经的任何人都能读取。请使用服务商的 https:// 地址。</translation>
    </message>
    <message>
        <source>%1 is not an http:// or https:// address.</source>
        <translation>%1 不是 http:// 或 https:// 地址。</translation>
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
        <source>The sandbox's data directory %1 cannot be created.</source>
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
        <source>Refused the program at %1: it answers like CardHour Sandbox but cannot prove that it is the one using %2 (%3). It may be another user's program waiting for your password; nothing was sent to it.</source>
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
        <source>the provider's SSH address is longer than 253 characters</source>
        <translation>服务商提供的 SSH 地址超过 253 个字符</translation>
    </message>
    <message>
        <source>the provider's SSH address “%1” is neither a host name nor an IP address</source>
        <translation>服务商提供的 SSH 地址“%1”既不是主机名也不是 IP 地址</translation>
    </message>
    <message>
        <source>the provider gave no SSH user</source>
        <translation>服务商未提供 SSH 用户</translation>
    </message>
    <message>
        <source>the provider's SSH user “%1” is not a valid user name</source>
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
    <name>cardhour::ui::ConnectPage</name>
    <message>
        <source>Enter an http:// or https:// address.</source>
        <translation>请输入 http:// 或 https:// 地址。</translation>
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
        <source>&lt;b&gt;Stopped:&lt;/b&gt; its %1 GiB disk costs nothing (the provider's storage price is %2 per GiB-hour).</source>
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
        <source>the container's own disk</source>
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
        <source>Open the host's app in the browser</source>
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
        <source>Remove %1 from this computer?</source>
        <translation>要从本机移除 %1 吗？</translation>
    </message>
    <message>
        <source>A key CardHour generated is deleted for good; an imported key stays in ~/.ssh. Instances that accept only this key can no longer be reached from here.</source>
        <translation>CardHour 生成的密钥将被永久删除；导入的密钥仍保留在 ~/.ssh 中。只接受此密钥的实例将无法再从本机连接。</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Removed %1 from this computer (the provider keeps its copy).</source>
        <translation>已从本机移除 %1（服务商仍保留其副本）。</translation>
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
        <source>The ledger could not be written to %1: %2</source>
        <translation>无法将账目写入 %1：%2</translation>
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
</context>
<context>
    <name>cardhour::ui::LoginDialog</name>
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
        <source>Sign up</source>
        <translation>注册</translation>
    </message>
    <message>
        <source>Log in</source>
        <translation>登录</translation>
    </message>
    <message>
        <source>Sign up to CardHour</source>
        <translation>注册 CardHour</translation>
    </message>
    <message>
        <source>Log in to CardHour</source>
        <translation>登录 CardHour</translation>
    </message>
    <message>
        <source>Asking the provider…</source>
        <translation>正在请求服务商…</translation>
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
        <source>Not logged in. Use File → Reload to log in.</source>
        <translation>未登录。请使用“文件 → 刷新”登录。</translation>
    </message>
    <message>
        <source>Launching %1…</source>
        <translation>正在启动 %1…</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Added %1 (simulated payment). Balance: %2</source>
        <translation>已充值 %1（模拟支付）。余额：%2</translation>
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
    <message>
        <source>Pages</source>
        <translation>页面</translation>
    </message>
    <message>
        <source>Restoring into %1…</source>
        <translation>正在恢复到 %1…</translation>
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
        <source>%1/h</source>
        <translation>%1/小时</translation>
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
        <source>taken since %1</source>
        <translation>自 %1 起制作中</translation>
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
        <source>A snapshot keeps an instance's own disk and /workspace, so you can restore it later as a new instance, on any GPU type. Launch an instance first: a snapshot is taken from a running or stopped instance.</source>
        <translation>快照保存实例自身的磁盘和 /workspace，之后可在任意 GPU 型号上恢复为新实例。请先启动一台实例：快照取自运行中或已停止的实例。</translation>
    </message>
    <message>
        <source>A snapshot keeps an instance's own disk and /workspace, so you can restore it later as a new instance, on any GPU type. Choose an instance above and press Take snapshot, or snapshot the first one now:</source>
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
            <numerusform>保留期间按存储计费：%n GiB，每 GiB·小时 %1，%2。</numerusform></translation>
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
        <source>Delete the snapshot “%1”? Its copy of %2 (%3) is deleted for good and cannot be restored afterwards.</source>
        <translation>删除快照“%1”？它保存的%2（%3）将被永久删除，之后无法再恢复。</translation>
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
            <numerusform>这种类型目前只有 %n 张卡空闲。</numerusform></translation>
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
        <source>%1 is at %2 (through SSH).</source>
        <translation>%1 位于 %2（经由 SSH）。</translation>
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
        <source>the balance ran out</source>
        <translation>余额已用完</translation>
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
        <source>The cardhour-sim executable.</source>
        <translation>cardhour-sim 可执行文件。</translation>
    </message>
    <message>
        <source>Also trust the certificate authorities in FILE (PEM) for an https:// provider with a certificate of its own.</source>
        <translation>对于使用自有证书的 https:// 提供商，同时信任 FILE（PEM）中的证书颁发机构。</translation>
    </message>
</context>
</TS>